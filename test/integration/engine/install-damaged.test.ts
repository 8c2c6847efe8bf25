// A database module that cannot load is a damaged installation, not a damaged cache: openDatabase
// says so (kind installation-damaged, never unreadable), names the module, its file, what the file was
// built for and the ABI this runtime loads, and leaves the healthy cache exactly as it was. Real
// better-sqlite3, loading a .node file that cannot load (a truncated copy: what a broken install or
// a half-finished download leaves; cut inside the ELF header, since a copy cut later can crash the
// loading process instead of failing), and one that is missing.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CacheError, classifyOpenError, closeDatabase, openDatabase } from '../../../electron/core/store/db';
import { cacheFailureDialog } from '../../../electron/main/cache-failure';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

const NODE_BUILD = resolve('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const ABI = process.versions.modules;

/** A healthy cache, closed cleanly, and a copy of its bytes. */
async function healthyCache(): Promise<{ path: string; bytes: Buffer }> {
  const dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir);
  const path = join(dir, 'workbench.db');
  const db = await openDatabase(path);
  db.exec("CREATE TABLE mine (note TEXT) STRICT; INSERT INTO mine VALUES ('called Ana')");
  closeDatabase(db);
  return { path, bytes: readFileSync(path) };
}

async function openWith(path: string, nativeBinding: string): Promise<CacheError> {
  const err = await openDatabase(path, { nativeBinding }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CacheError);
  return err as CacheError;
}

describe('a database module that cannot load', () => {
  it('a truncated .node file (ERR_DLOPEN_FAILED): installation-damaged, naming module, file and ABIs; the cache untouched', async () => {
    const { path, bytes } = await healthyCache();
    const broken = join(dirname(path), 'better_sqlite3.node');
    writeFileSync(broken, readFileSync(NODE_BUILD).subarray(0, 32));
    const before = readdirSync(dirname(path)).sort();
    const err = await openWith(path, broken);
    expect(err.kind).toBe('installation-damaged');
    expect(err.message).toContain("Outreach Workbench's installation is damaged");
    expect(err.message).toContain(`better-sqlite3, ${broken} (`);
    expect(err.message).toContain(`loads native modules of ABI ${ABI}`);
    expect(err.message).toMatch(/Reinstall the app/);
    expect(err.message).toContain(`The cache file ${path} was not touched`);
    // Not one byte of the cache changed, and nothing was left beside it (no WAL, no open marker, nothing moved aside).
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(readdirSync(dirname(path)).sort()).toEqual(before);
  });

  it("a module built for another runtime: Node's own words for it are read as installation-damaged, and the file's ABI is read from it", () => {
    // Node's message when a file's NODE_MODULE_VERSION differs (src/node_binding.cc), as Electron shows it.
    const err = Object.assign(
      new Error(
        `The module '${NODE_BUILD}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION ${ABI}. This version of Node.js requires\nNODE_MODULE_VERSION 150. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const failure = classifyOpenError(err, '/data/workbench.db');
    expect(failure?.kind).toBe('installation-damaged');
    expect(failure?.message).toContain(`${NODE_BUILD} (built for ABI ${ABI})`);
    expect(failure?.message).toContain('requires NODE_MODULE_VERSION 150');
  });

  it('a missing .node file: installation-damaged too', async () => {
    const { path, bytes } = await healthyCache();
    const err = await openWith(path, join(dirname(path), 'gone', 'better_sqlite3.node'));
    expect(err.kind).toBe('installation-damaged');
    expect(err.message).toContain('gone/better_sqlite3.node (unreadable (ENOENT))');
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('the dialog for it offers no way to move or reset the cache, and says to reinstall', async () => {
    const { path } = await healthyCache();
    const broken = join(dirname(path), 'better_sqlite3.node');
    writeFileSync(broken, 'not a library');
    const err = await openWith(path, broken);
    const d = cacheFailureDialog({ kind: err.kind, message: err.message, path });
    expect(d.buttons.map((b) => b.action)).toEqual(['open-folder', 'quit']);
    expect(d.message).toMatch(/installation is damaged/);
    expect(d.detail).toMatch(/reinstall it/);
    expect(d.detail).toMatch(/your cache, triage and notes were not touched/);
    expect(d.detail).not.toMatch(/Start over/);
  });
});
