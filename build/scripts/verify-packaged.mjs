// A real electron-builder packaging, and the checks of what it laid out. Electron's binary cannot be
// downloaded on the machines that test this project, so verify:package packs with a stand-in Electron
// (a folder with a dummy `electron` executable, which electron-builder copies as it would the real
// one) into a temporary folder, with the fuses left out (they are flipped inside the real binary;
// electron-builder.yml's fuses are checked on their own). dist.mjs runs the same checks on the real
// package, with Electron's ABI.
//
// What a packaged app must hold: app.asar with package.json, main, the preload, the renderer, and
// the core's entry and bundles where main forks them (the build's checks run again on the files
// extracted from the asar); app.asar.unpacked with the .node files only, each marked unpacked in the
// asar's header and built for the runtime that loads them; and the updater's app-update.yml.
import { extractAll, listPackage, statFile, uncache } from '@electron/asar';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { toolCommand } from './commands.mjs';
import { archMismatch, describeBuild, loadsWithAbi, NOT_NODE_MODULES, probeNativeFile } from './native-abi.mjs';

/**
 * A packaged app: its resources folder (Linux and Windows: <app>/resources; macOS:
 * <app>.app/Contents/Resources), the runtime whose ABI its native modules need, the build's
 * checks to run again on what the asar holds; and the CPU it is for (electron-builder's name: x64,
 * arm64, ia32, armv7l), when its .node files are to be held to it.
 * @typedef {{ resourcesDir: string, abi: number, runtime: string, arch?: string }} Packaged
 */

/** Every file under a folder, as forward-slash paths relative to it. @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      relative(dir, join(e.parentPath ?? e.path, e.name))
        .split(sep)
        .join('/'),
    );
}

/**
 * Packs the project at `root` (its electron-builder.yml, package.json and node_modules) with the
 * build in `outDir`, for Linux's unpacked `dir` target, with a stand-in Electron; returns the
 * resources folder. Works in `work`, never in the project. About 20 s.
 * @param {string} root @param {string} outDir @param {string} work @param {string} electronVersion
 */
export function packWithStandIn(root, outDir, work, electronVersion) {
  const stage = join(work, 'stage');
  const standIn = join(work, 'electron-stand-in');
  mkdirSync(standIn, { recursive: true });
  writeFileSync(join(standIn, 'electron'), '#!/bin/sh\necho "a stand-in for Electron: verify:package lays out the app with it"\n', { mode: 0o755 });
  mkdirSync(stage, { recursive: true });
  cpSync(outDir, join(stage, 'out'), { recursive: true });
  cpSync(join(root, 'package.json'), join(stage, 'package.json'));
  cpSync(join(root, 'build'), join(stage, 'build'), { recursive: true, filter: (src) => !src.includes(`${sep}scripts`) });
  symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'), process.platform === 'win32' ? 'junction' : 'dir');
  const config = parseYaml(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  Object.assign(config, {
    electronDist: standIn,
    electronVersion,
    npmRebuild: false,
    // node_modules is packed as it is (built for this Node, for the tests): no rebuild for Electron.
    beforePack: null,
    electronFuses: null,
    directories: { ...config.directories, output: join(work, 'release') },
  });
  writeFileSync(join(stage, 'electron-builder.yml'), stringifyYaml(config));
  // electron-builder's own CLI, run by Node (commands.mjs); its chatter is shown only when it fails.
  const c = toolCommand(root, 'electron-builder', ['--linux', 'dir', '--projectDir', stage, '--publish', 'never']);
  const r = spawnSync(c.command, c.args, { ...c.options, cwd: stage, encoding: 'utf8', timeout: 300_000, env: { ...process.env, FORCE_COLOR: '0' } });
  if (r.status !== 0) throw new Error(`electron-builder could not pack the app (exit code ${r.status ?? r.error?.message}):\n${r.stdout}\n${r.stderr}`);
  return join(work, 'release', 'linux-unpacked', 'resources');
}

/**
 * The .node files in app.asar.unpacked, and nothing else; each marked unpacked in the asar's header
 * (Electron's asar support loads it from there); every native module's .node file among them.
 * @param {Packaged} packaged @param {import('./verify-package.mjs').Context} ctx
 */
export function checkUnpacked(packaged, ctx) {
  const asar = join(packaged.resourcesDir, 'app.asar');
  if (!existsSync(asar)) return [`${asar} is missing: the app was not packed into an asar`];
  uncache(asar); // @electron/asar keeps each archive's header by path: read this one as it is now
  const unpackedDir = join(packaged.resourcesDir, 'app.asar.unpacked');
  const unpacked = filesUnder(unpackedDir);
  const problems = unpacked
    .filter((f) => !f.endsWith('.node') || NOT_NODE_MODULES.some((n) => f.endsWith(`/${n}`)))
    .map((f) => `app.asar.unpacked holds ${f}: only the native modules' .node files belong there (sources and build leftovers stay out of the package)`);
  for (const f of unpacked.filter((f) => f.endsWith('.node'))) {
    let marked = false;
    try {
      marked = statFile(asar, f).unpacked === true;
    } catch {
      marked = false;
    }
    if (!marked) problems.push(`app.asar does not list ${f} as unpacked: Electron would look for it inside the archive`);
  }
  const natives = Object.keys(ctx.pkg.dependencies ?? {}).filter((name) => existsSync(join(ctx.nodeModules, name, 'binding.gyp')));
  for (const name of natives) {
    if (!unpacked.some((f) => f.startsWith(`node_modules/${name}/`) && f.endsWith('.node'))) problems.push(`app.asar.unpacked has no .node file of ${name}`);
  }
  const packedNative = listPackage(asar, { isPack: false })
    .map((p) =>
      p
        .replace(/^[\\/]/, '')
        .split('\\')
        .join('/'),
    )
    .filter((p) => p.endsWith('.node') && !unpacked.includes(p));
  for (const p of packedNative) problems.push(`${p} is inside app.asar: a .node file cannot load from the archive`);
  return problems;
}

/**
 * Each unpacked .node file is built for the packaged runtime's ABI (or is Node-API), and for the
 * package's CPU when it names one (an x64 module does not load on an Apple silicon Mac). @param {Packaged} packaged
 */
export function checkPackagedAbi(packaged) {
  const dir = join(packaged.resourcesDir, 'app.asar.unpacked');
  return filesUnder(dir)
    .filter((f) => f.endsWith('.node') && !NOT_NODE_MODULES.some((n) => f.endsWith(`/${n}`)))
    .map((f) => probeNativeFile(join(dir, f)))
    .flatMap((probe) => {
      const file = relative(dir, probe.file).split(sep).join('/');
      const problems = [];
      if (!loadsWithAbi(probe, packaged.abi)) problems.push(`${file} is built for ${describeBuild(probe)}, but ${packaged.runtime} needs ABI ${packaged.abi}`);
      const cpu = packaged.arch === undefined ? null : archMismatch(probe, packaged.arch);
      if (cpu) problems.push(`${file} ${cpu}`);
      return problems;
    });
}

/** The settings of an update feed that say where it is: which provider, and its owner and repo, or its URL. */
const FEED_FIELDS = Object.freeze(['provider', 'owner', 'repo', 'url']);

/**
 * The updater's settings beside the asar name the feed electron-builder.yml publishes to: the same
 * provider, owner and repo (GitHub) or url (a generic feed). @param {Packaged} packaged @param {import('./verify-package.mjs').Context} ctx
 */
export function checkAppUpdateYml(packaged, ctx) {
  const path = join(packaged.resourcesDir, 'app-update.yml');
  if (!existsSync(path)) return ['resources/app-update.yml is missing: the packaged app would not know where to look for updates'];
  const written = parseYaml(readFileSync(path, 'utf8')) ?? {};
  const want = [ctx.builder.publish ?? []].flat()[0];
  if (!want) return [];
  return FEED_FIELDS.filter((field) => (want[field] ?? null) !== (written[field] ?? null)).map(
    (field) =>
      `app-update.yml names ${field} ${JSON.stringify(written[field] ?? null)}, electron-builder.yml's publish ${JSON.stringify(want[field] ?? null)}: the app would look for updates elsewhere`,
  );
}

/**
 * Runs the build's checks again on the files the asar holds (extracted into `work`): the core's
 * entry and its chunks where main forks them, the preload where main loads it, the renderer's files.
 * @param {Packaged} packaged @param {import('./verify-package.mjs').Context} ctx @param {string} work
 * @param {readonly { name: string, run: (ctx: object) => string[] }[]} buildChecks
 */
export function checkAsarHoldsTheBuild(packaged, ctx, work, buildChecks) {
  const asar = join(packaged.resourcesDir, 'app.asar');
  if (!existsSync(asar)) return [`${asar} is missing`];
  const extracted = join(work, 'extracted-asar');
  uncache(asar);
  extractAll(asar, extracted);
  const pkgPath = join(extracted, 'package.json');
  if (!existsSync(pkgPath)) return ['app.asar has no package.json'];
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const main = String(pkg.main ?? '').replace(/^\.\//, '');
  const problems = [];
  if (!main || !existsSync(join(extracted, main)) || !statSync(join(extracted, main)).isFile())
    problems.push(`app.asar has no ${main || 'main'} (package.json's main)`);
  const packedCtx = { ...ctx, outDir: join(extracted, 'out'), pkg };
  for (const { name, run } of buildChecks) for (const p of run(packedCtx)) problems.push(`in app.asar, ${name}: ${p}`);
  return problems;
}

/**
 * The checks of a packaged app, each with the words printed beside ✓ or ✗.
 * @param {Packaged} packaged @param {import('./verify-package.mjs').Context} ctx @param {string} work
 * @param {readonly { name: string, run: (ctx: object) => string[] }[]} buildChecks the build's checks that read only the build
 */
export function packagedChecks(packaged, ctx, work, buildChecks) {
  return [
    {
      name: "packaged: app.asar holds the build, the core's entry and bundles where main forks them",
      problems: checkAsarHoldsTheBuild(packaged, ctx, work, buildChecks),
    },
    { name: 'packaged: app.asar.unpacked holds the .node files and nothing else', problems: checkUnpacked(packaged, ctx) },
    {
      name: `packaged: every .node file built for ${packaged.runtime} (ABI ${packaged.abi})${packaged.arch ? ` and ${packaged.arch}` : ''}`,
      problems: checkPackagedAbi(packaged),
    },
    {
      name: "packaged: app-update.yml names electron-builder.yml's update feed (provider, owner and repo, or url)",
      problems: checkAppUpdateYml(packaged, ctx),
    },
  ];
}
