// A `workbench` command that wrote compacts the cache as it closes when the
// space left loose calls for it (store/cache.ts compactIfLoose), which holds
// the command's end for seconds on a large cache: it says so on stderr, one
// plain line, only when the compaction runs (never after a read, never when
// there is too little loose space). A real cache file synced from the simulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { runCli } from '../support/cli-run';
import { tempDir } from '../support/tmp';

let sim: Simulator;
const tmp = tempDir();
beforeAll(async () => {
  sim = await startSimulator({ seed: 45, opportunities: 30, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
});
afterAll(() => {
  sim.close();
  tmp.cleanup();
});

const SAID = 'Compacting the cache…\n';

/** Six MB of the file put on its free list (the cache gives free pages back only in steps after a sync): loose space past both thresholds. */
function loosen(db: string): void {
  const raw = new Database(db);
  try {
    raw.exec('CREATE TABLE scratch (b BLOB)');
    const put = raw.prepare('INSERT INTO scratch VALUES (zeroblob(65536))');
    for (let i = 0; i < 96; i++) put.run();
    raw.exec('DROP TABLE scratch');
    raw.pragma('wal_checkpoint(TRUNCATE)');
    expect(raw.pragma('freelist_count', { simple: true }) as number).toBeGreaterThan(700);
  } finally {
    raw.close();
  }
}

describe('the CLI compacting the cache at its end', () => {
  it('says "Compacting the cache…" before it does, and only when it does', async () => {
    const db = join(tmp.dir, 'workbench.db');
    const cli = (args: string[]) => runCli(args, { url: sim.url, db });
    const brand = sim.brands[0]!.id;
    // A first sync this small leaves too little loose for its tidy-up to rewrite the file: nothing said.
    const sync = await cli(['sync', '--no-citations', '--no-scores']);
    expect(sync.code).toBe(0);
    expect(sync.err).not.toContain('Compacting');
    const id = (JSON.parse((await cli(['list', '--brand', brand, '--json'])).out) as { id: string }[])[0]!.id;
    // A write with little loose space: no compaction, nothing said.
    const star = await cli(['triage', '--brand', brand, '--id', id, '--star']);
    expect(star.code).toBe(0);
    expect(star.err).not.toContain('Compacting');

    loosen(db);
    const loose = statSync(db).size;
    // A read: the file is left as it is, whatever is loose in it.
    const read = await cli(['list', '--brand', brand, '--json']);
    expect(read.code).toBe(0);
    expect(read.err).not.toContain('Compacting');
    expect(statSync(db).size).toBe(loose);
    // A write: compacted at its close, said once, after the command's own words.
    const note = await cli(['triage', '--brand', brand, '--id', id, '--note', 'compact me']);
    expect(note.code).toBe(0);
    expect(note.err.split(SAID)).toHaveLength(2);
    expect(note.err.endsWith(SAID)).toBe(true);
    expect(statSync(db).size).toBeLessThan(loose - 5 * 1024 * 1024);
  });

  it('says nothing of compacting when another program holds the write lock at the close, and leaves the file as it is', async () => {
    const db = join(tmp.dir, 'busy.db');
    const brand = sim.brands[0]!.id;
    expect((await runCli(['sync', '--no-citations', '--no-scores'], { url: sim.url, db })).code).toBe(0);
    const id = (JSON.parse((await runCli(['list', '--brand', brand, '--json'], { url: sim.url, db })).out) as { id: string }[])[0]!.id;
    loosen(db);
    const loose = statSync(db).size;
    // Another program takes the write lock once the command has written and said so, before its close compacts.
    const other = new Database(db);
    try {
      const note = await runCli(['triage', '--brand', brand, '--id', id, '--note', 'not now'], {
        url: sim.url,
        db,
        onOut: () => {
          if (!other.inTransaction) other.exec('BEGIN IMMEDIATE');
        },
      });
      expect(other.inTransaction).toBe(true);
      expect(note.code).toBe(0);
      expect(note.err).not.toContain('Compacting');
      other.exec('ROLLBACK');
      // Not rewritten: the same size, its free pages still there.
      expect(statSync(db).size).toBe(loose);
      expect(other.pragma('freelist_count', { simple: true }) as number).toBeGreaterThan(700);
    } finally {
      other.close();
    }
  });
});
