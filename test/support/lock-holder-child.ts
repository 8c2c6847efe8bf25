// Another program holding the cache's write lock (a database tool, a backup
// program, another app's long write): opens the file with SQLite alone, begins
// a write transaction, writes, says "holding", and commits when told
// ("release" on stdin) or after `holdMs`. Usage: tsx lock-holder-child.ts <db> [holdMs]
import Database from 'better-sqlite3';

const [path, holdMs] = process.argv.slice(2);
const db = new Database(path!);
db.pragma('busy_timeout = 10000');
db.exec('BEGIN IMMEDIATE');
db.exec(
  "INSERT OR REPLACE INTO do_not_contact (kind, value, note, added_at) VALUES ('domain', 'held.example', 'written by the holder', '2026-01-01T00:00:00Z')",
);
process.stdout.write('holding\n');
const release = () => {
  db.exec('COMMIT');
  db.close();
  process.stdout.write('released\n');
  process.exit(0);
};
if (holdMs) setTimeout(release, Number(holdMs));
process.stdin.on('data', (c: Buffer) => {
  if (c.toString().includes('release')) release();
});
