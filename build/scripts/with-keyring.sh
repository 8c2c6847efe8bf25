#!/usr/bin/env bash
# Run a command with an unlocked gnome-keyring as the Secret Service. Call it
# inside `dbus-run-session` with a fresh HOME (an existing keyring whose
# password is unknown cannot be unlocked):
#   HOME=$(mktemp -d) dbus-run-session -- bash build/scripts/with-keyring.sh npm test
set -euo pipefail
if command -v gnome-keyring-daemon >/dev/null 2>&1 && [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  eval "$(printf 'workbench-ci\n' | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK 2>/dev/null || true
  export WORKBENCH_KEYRING=unlocked
else
  echo "note: no D-Bus session or gnome-keyring: keychain tests will use their 'keychain unavailable' path." >&2
fi
exec "$@"
