// electron-builder's beforePack hook (electron-builder.yml `beforePack`): called once for every CPU it
// packages (macOS: x64, then arm64), just before it copies node_modules into that CPU's app. The
// native modules are rebuilt here for the locked Electron and that CPU (native.mjs: clean, forced,
// each .node file's ABI and CPU read back), so each app gets modules of its own CPU. electron-builder's
// own rebuild stays off (npmRebuild: false): it skips a module whose stale marker says it is built.
//
// One electron-builder run for all CPUs (not one run per CPU) because the update feed is written per
// run: a second run would overwrite latest-mac.yml with its own CPU's files only, and Macs of the
// other kind would no longer find their update.
import { nodeArch } from './native-abi.mjs';
import { prepareForElectron } from './native.mjs';

/** builder-util's Arch enum: the number electron-builder passes as `context.arch`, by position. */
export const BUILDER_ARCHS = Object.freeze(['ia32', 'x64', 'armv7l', 'arm64', 'universal']);

/**
 * The hook, with the rebuild it runs (`prepare(projectDir, arch)`, arch in Node's words: x64, arm64,
 * ia32, arm). A failed rebuild throws, which stops electron-builder with its message.
 * @param {(root: string, arch: string) => { ok: boolean, message: string }} prepare
 * @param {(message: string) => void} [say]
 */
export function makeBeforePack(prepare, say = (m) => console.log(m)) {
  /** @param {{ arch: number | string, packager: { projectDir: string } }} context */
  return async (context) => {
    const arch = typeof context.arch === 'number' ? BUILDER_ARCHS[context.arch] : String(context.arch);
    if (arch === undefined || arch === 'universal') {
      // electron-builder packs a universal app as an x64 and an arm64 one first (each comes here); the merge itself needs nothing.
      if (arch === 'universal') return;
      throw new Error(`electron-builder asked to pack for an unknown CPU (${String(context.arch)}): cannot rebuild the native modules for it.`);
    }
    const result = prepare(context.packager.projectDir, nodeArch(arch));
    if (!result.ok) throw new Error(`${result.message}\nNothing was packaged for ${arch}.`);
    say(result.message);
  };
}

export const beforePack = makeBeforePack((root, arch) => prepareForElectron(root, { arch }));
export default beforePack;
