#!/usr/bin/env node
// Native modules (better-sqlite3, keytar) are compiled for one runtime at a time: Node's ABI for tests,
// the CLI and benchmarks; Electron's for the app. This puts the build the runtime needs in
// node_modules, and then reads each .node file to prove it (native-abi.mjs): no stamp file is trusted.
//   node build/scripts/native.mjs node      -> usable by `node` (npm test, cli, bench)
//   node build/scripts/native.mjs electron  -> usable by Electron (npm run dev/start/demo/dist)
//
// For Electron the rebuild is unconditional and clean: @electron/rebuild skips a module whose
// build/Release/.forge-meta names Electron's ABI, and prebuild-install (the Node rebuild) leaves that
// marker behind beside a Node binary; so the markers and the old .node files go first, the rebuild
// is forced, and npm config inherited from ~/.npmrc (nodedir=/usr would point node-gyp at Node's
// headers) is left out of its environment.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmCommand, toolCommand } from './commands.mjs';
import { builtNativeFiles, lockedElectronAbi, nativeAbiProblems } from './native-abi.mjs';

export const NATIVE_MODULES = Object.freeze(['better-sqlite3', 'keytar']);
/** Where Electron's headers come from (node-gyp's --dist-url for an Electron target). */
export const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';

/**
 * npm settings that node-gyp and prebuild-install read from the environment (npm exports every
 * setting of ~/.npmrc to the scripts it runs as npm_config_<name>). Inherited, they would build
 * for the wrong runtime: nodedir points at Node's headers whatever the target.
 */
export const INHERITED_BUILD_SETTINGS = Object.freeze(['nodedir', 'target', 'runtime', 'disturl', 'dist_url', 'target_arch', 'arch', 'build_from_source']);

/**
 * The environment for an Electron rebuild: this one without the inherited build settings (in any
 * case, with - or _), and with Electron named as the runtime.
 * @param {Record<string, string | undefined>} env @param {string} electronVersion
 */
export function electronBuildEnv(env, electronVersion) {
  const inherited = new Set(INHERITED_BUILD_SETTINGS.map((name) => `npm_config_${name}`));
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !inherited.has(name.toLowerCase().replace(/-/g, '_'))));
  return { ...kept, npm_config_runtime: 'electron', npm_config_target: electronVersion, npm_config_disturl: ELECTRON_HEADERS_URL };
}

/**
 * Remove what could make a rebuild skip a module or leave an old binary in place: @electron/rebuild's
 * `.forge-meta` markers and the built .node files. Returns what was removed.
 * @param {string} moduleDir @returns {string[]}
 */
export function cleanNativeBuild(moduleDir) {
  const stale = [join(moduleDir, 'build', 'Release', '.forge-meta'), join(moduleDir, 'build', 'Debug', '.forge-meta'), ...builtNativeFiles(moduleDir)].filter(
    (path) => existsSync(path),
  );
  for (const path of stale) rmSync(path, { force: true });
  return stale;
}

/**
 * The forced, clean Electron rebuild of `modules` in the project at `root`: @electron/rebuild's own
 * entry run by Node, for the CPU `arch` (this machine's unless given: a Mac builds its x64 and its
 * arm64 app one after the other), with Electron's headers from `headersUrl` (a mirror may stand in).
 * @param {string} root @param {string} electronVersion @param {readonly string[]} modules
 * @param {Record<string, string | undefined>} env the environment to clean (electronBuildEnv)
 * @param {import('./commands.mjs').Where & { headersUrl?: string, arch?: string }} [where]
 */
export function electronRebuildCommand(root, electronVersion, modules, env, where = {}) {
  const headers = where.headersUrl ?? ELECTRON_HEADERS_URL;
  const arch = where.arch ?? process.arch;
  const args = [
    '--version',
    electronVersion,
    '--arch',
    arch,
    '--force',
    '--only',
    modules.join(','),
    '--module-dir',
    root,
    '--dist-url',
    headers,
    '--sequential',
  ];
  return { ...toolCommand(root, 'electron-rebuild', args, where), env: { ...electronBuildEnv(env, electronVersion), npm_config_disturl: headers } };
}

/** Whether the modules load in this Node (require and one query): the probe of last resort, beside the ABI probe. @param {string} root */
function loadsInNode(root) {
  const probe = "const D=require('better-sqlite3'); new D(':memory:').prepare('select 1').get(); require('keytar');";
  const r = spawnSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8' });
  return { ok: r.status === 0, why: (r.stderr || '').split('\n').find((l) => l.includes('Error')) ?? '' };
}

/** @param {{ command: string, args: string[], options: object, env?: object }} c @param {string} root */
function run(c, root) {
  const r = spawnSync(c.command, c.args, { ...c.options, cwd: root, stdio: 'inherit', env: c.env ?? process.env });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/**
 * Put Node builds in place when what is there does not load in this Node, then prove it.
 * @param {string} root @returns {{ ok: boolean, message: string }}
 */
export function prepareForNode(root) {
  const target = { abi: Number(process.versions.modules), runtime: `Node ${process.version}`, arch: process.arch };
  const nodeModules = join(root, 'node_modules');
  if (nativeAbiProblems(nodeModules, NATIVE_MODULES, target).length === 0 && loadsInNode(root).ok) {
    return { ok: true, message: `Native modules built for ${target.runtime} (ABI ${target.abi}).` };
  }
  console.log(`Rebuilding ${NATIVE_MODULES.join(', ')} for ${target.runtime}…`);
  // The markers describe the Electron build being replaced: gone with it, so no later rebuild trusts them.
  for (const name of NATIVE_MODULES) cleanNativeBuild(join(nodeModules, name));
  const status = run(npmCommand(['rebuild', ...NATIVE_MODULES]), root);
  const problems = nativeAbiProblems(nodeModules, NATIVE_MODULES, target);
  const loads = loadsInNode(root);
  if (status !== 0 || problems.length > 0 || !loads.ok) {
    return {
      ok: false,
      message:
        `The native modules still do not load under ${target.runtime}.\n${[...problems, loads.why].filter(Boolean).join('\n')}\n` +
        'On Debian/Ubuntu run: bash build/setup.sh (it installs libsecret-1-dev and a compiler).',
    };
  }
  return { ok: true, message: `Native modules rebuilt for ${target.runtime} (ABI ${target.abi}).` };
}

/**
 * A clean, forced rebuild for the Electron in package-lock.json and the CPU `arch` (this machine's
 * unless given), then the probe: every .node file must carry Electron's ABI (or be Node-API) and be
 * built for that CPU.
 * @param {string} root
 * @param {{ rebuild?: (c: ReturnType<typeof electronRebuildCommand>) => number, env?: Record<string, string | undefined>, arch?: string }} [opts]
 *   `rebuild` runs the command (tests pass one that records it); `env` is the environment to clean;
 *   `arch` the CPU to build for (Node's or electron-builder's name: x64, arm64, ia32, armv7l).
 * @returns {{ ok: boolean, message: string }}
 */
export function prepareForElectron(root, opts = {}) {
  const { version, abi } = lockedElectronAbi(root);
  const arch = opts.arch ?? process.arch;
  const forArch = opts.arch === undefined ? '' : ` on ${arch}`;
  const nodeModules = join(root, 'node_modules');
  for (const name of NATIVE_MODULES) cleanNativeBuild(join(nodeModules, name));
  console.log(`Rebuilding ${NATIVE_MODULES.join(', ')} for Electron ${version} (ABI ${abi})${forArch}…`);
  const command = electronRebuildCommand(root, version, NATIVE_MODULES, opts.env ?? process.env, { arch });
  const status = (opts.rebuild ?? ((c) => run(c, root)))(command);
  const problems = nativeAbiProblems(nodeModules, NATIVE_MODULES, { abi, runtime: `Electron ${version}`, arch });
  if (status !== 0 || problems.length > 0) {
    return {
      ok: false,
      message:
        `The native modules are not built for Electron ${version} (ABI ${abi})${forArch}${status !== 0 ? `: the rebuild failed (exit code ${status})` : ''}.\n` +
        `${problems.join('\n')}\n` +
        "The rebuild downloads Electron's headers (or a prebuilt module) from the internet, and compiles with a C++ compiler and python3.",
    };
  }
  return { ok: true, message: `Native modules built for Electron ${version} (ABI ${abi})${forArch}, read from each .node file.` };
}

/** Where Electron's binary would be: node_modules/electron/path.txt names it once install.js has fetched it. @param {string} root */
export function hasElectronBinary(root) {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  return existsSync(pathFile) && existsSync(join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim()));
}

export const NO_ELECTRON_BINARY =
  "Electron's binary is not installed (set-up ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed).\n" +
  'On a machine that can reach the Electron download site run: node node_modules/electron/install.js\n' +
  'Tests, the CLI, the simulator and the UI test host work without it.';

const isEntryPoint = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntryPoint) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const target = process.argv[2];
  // A stamp from older versions of this script: never read again, so it goes.
  rmSync(join(root, '.native-abi'), { force: true });
  let result;
  if (target === 'node') result = prepareForNode(root);
  else if (target === 'electron') {
    if (!hasElectronBinary(root)) {
      console.error(NO_ELECTRON_BINARY);
      process.exit(1);
    }
    result = prepareForElectron(root);
  } else {
    console.error('usage: native.mjs node|electron');
    process.exit(2);
  }
  if (result.ok) console.log(result.message);
  else console.error(result.message);
  process.exit(result.ok ? 0 : 1);
}
