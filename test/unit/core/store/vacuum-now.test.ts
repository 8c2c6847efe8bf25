// What a compaction says (store/compaction.ts vacuumNow): "compacting" only
// once the write lock was seen free, and "skipped" when the VACUUM still could
// not run after that (another program took the file in between: here its
// VACUUM made to fail as SQLite fails it then). A real SQLite file.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { vacuumNow } from '../../../../electron/core/store/compaction';
import { tempDir } from '../../../support/tmp';

describe('a compaction says what it does', () => {
  it('says nothing while another connection holds the write lock; "skipped" after "compacting" when the VACUUM fails; the settings put back', () => {
    const tmp = tempDir();
    const path = join(tmp.dir, 'vacuum.db');
    const db = new Database(path);
    const other = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE t (b BLOB)');
      db.pragma('busy_timeout = 1234');
      const size = db.pragma('cache_size', { simple: true });
      const said: string[] = [];
      const say = { onCompact: () => said.push('compacting'), onSkipped: () => said.push('skipped') };
      other.exec('BEGIN IMMEDIATE');
      expect(() => vacuumNow(db, say)).toThrow(/busy|locked/i);
      expect(said).toEqual([]);
      other.exec('ROLLBACK');
      // The lock seen free, then the VACUUM failing as it does when another program takes the file in between.
      const failing = new Proxy(db, {
        get(target, name) {
          if (name === 'exec')
            return (s: string) => {
              if (s === 'VACUUM') throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
              return target.exec(s);
            };
          const v = Reflect.get(target, name, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      expect(() => vacuumNow(failing, say)).toThrow(/locked/);
      expect(said).toEqual(['compacting', 'skipped']);
      vacuumNow(db, say);
      expect(said).toEqual(['compacting', 'skipped', 'compacting']);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
      expect(db.pragma('cache_size', { simple: true })).toBe(size);
    } finally {
      other.close();
      db.close();
      tmp.cleanup();
    }
  });
});
