#!/usr/bin/env bash
# One set-up command: system packages (Debian/Ubuntu, when it can install them),
# npm dependencies, and native modules built for Node so `npm test` runs next.
#
#   bash build/setup.sh
#
# Environment:
#   WORKBENCH_NO_ELECTRON=1   do not try to download Electron's binary (CI, or a
#                             machine that cannot reach Electron's download site).
#                             npm ci always runs with ELECTRON_SKIP_BINARY_DOWNLOAD=1
#                             so a blocked download never fails the install; the
#                             binary is fetched in a separate, optional step.
set -euo pipefail
cd "$(dirname "$0")/.."

# python3-openpyxl: an independent reader of the .xlsx exports in the tests (the csv module is Python's own).
# libreoffice-calc-nogui: the tests open every CSV export with formulas evaluated, as a person double-clicking it would.
# poppler-utils: pdfinfo/pdftotext read the Results report's PDF back in the tests.
packages=(build-essential python3 python3-openpyxl libreoffice-calc-nogui pkg-config libsecret-1-dev gnome-keyring dbus dbus-x11 libsecret-tools chromium fonts-dejavu-core unzip poppler-utils)

if command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1; then sudo="sudo"; fi
    fi
    if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
      echo "Installing system packages: ${missing[*]}"
      $sudo apt-get update -qq
      $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    else
      echo "warning: cannot install system packages (not root, no sudo). Install: ${missing[*]}" >&2
    fi
  fi
else
  echo "note: not a Debian/Ubuntu system; install yourself: a C++ compiler, python3, libsecret development headers, gnome-keyring (Linux), Chromium (for npm run e2e)."
fi

node -e 'const [a,b]=process.versions.node.split(".").map(Number); if(!((a===20&&b>=19)||(a===22&&b>=12)||a>22)){console.error("Node "+process.version+" is not supported: use Node 20.19+ or 22.12+.");process.exit(1)}'

echo "Installing npm dependencies (npm ci, Electron binary download skipped)…"
ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-fund --no-audit

if [ "${WORKBENCH_NO_ELECTRON:-}" != "1" ] && [ ! -f node_modules/electron/path.txt ]; then
  echo "Fetching Electron's binary (optional; needed only to launch the app)…"
  if ! node node_modules/electron/install.js; then
    echo "note: Electron's binary could not be downloaded. Tests, CLI, simulator and UI host work without it; the desktop app needs it."
  fi
fi

node build/scripts/native.mjs node
echo "Set-up done. Next: npm test"
