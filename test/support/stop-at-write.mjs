// Loaded into a `workbench` process by the fault suite (node --import), never
// by the app: it counts the process's writes and, when told to, sends the
// process a signal at a chosen one, before it is made. So a kill -9 lands in
// the part of a command that writes, at a moment the suite's seeded schedule
// picked, instead of at a time from start (which mostly fell in the loading
// of modules). What counts, in order:
// - write: every write call the process makes to a file (fs.writeSync,
//   fs.fsyncSync, fs.renameSync: the app's one writer; not the open marker
//   every command writes first) and to SQLite (each statement run, BEGIN and
//   COMMIT included; db.exec);
// - commit: the moments a change becomes real: a SQL COMMIT, a file renamed
//   into place;
// - sql-commit: a SQL COMMIT alone;
// - backup: a step of SQLite's online backup (the copy before an upgrade).
// WORKBENCH_TEST_STOP_AT=<kind>:<n>[:<signal>] sends <signal> (default
// SIGKILL) just before the n-th event of that kind (for SIGINT the event then
// goes on: the signal is heard at the next turn). WORKBENCH_TEST_WRITE_COUNTS
// names a file that gets { counts, stoppedAt }: the counts as the process
// exits (the schedule is drawn from an unkilled run's counts), and, written
// just before the signal is sent, what the chosen event was (the file a write
// goes to, the SQL a statement runs), so a test knows its kill landed there.
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

const counts = { write: 0, commit: 0, 'sql-commit': 0, backup: 0 };
const [kind, at, signal = 'SIGKILL'] = (process.env.WORKBENCH_TEST_STOP_AT ?? '').split(':');
const stopAt = Number(at);
const original = { writeFileSync: fs.writeFileSync, readlinkSync: fs.readlinkSync };
const report = process.env.WORKBENCH_TEST_WRITE_COUNTS;
let stoppedAt = null;

/** The file behind a descriptor (Linux's /proc; elsewhere its number). */
function fileOf(fd) {
  try {
    return original.readlinkSync(`/proc/self/fd/${fd}`).split('/').pop();
  } catch {
    return `descriptor ${fd}`;
  }
}

/** Count one event of each kind it is; at the chosen one, say what it is, then signal the process. */
function event(what, ...kinds) {
  for (const k of kinds) {
    counts[k]++;
    if (k !== kind || counts[k] !== stopAt) continue;
    stoppedAt = `${k} ${stopAt}: ${what()}`;
    if (report) original.writeFileSync(report, JSON.stringify({ counts: null, stoppedAt }));
    process.kill(process.pid, signal);
  }
}

/** The open marker (workbench.db.open-<pid>, written through .tmp), the app's note that it has the cache open, made by every command. */
const MARKER = /\.open-\d+(?:\.tmp)?$/;

for (const name of ['writeSync', 'fsyncSync', 'renameSync']) {
  const real = fs[name];
  fs[name] = function (...args) {
    const file = typeof args[0] === 'number' ? fileOf(args[0]) : String(args[0]).split('/').pop();
    // Not counted: kills there would crowd out every command's own writes (a crash before the cache is touched is the open's business).
    if (!MARKER.test(file))
      event(
        () => `${name} ${file}${name === 'renameSync' ? ` to ${String(args[1]).split('/').pop()}` : ''}`,
        ...(name === 'renameSync' ? ['write', 'commit'] : ['write']),
      );
    return real.apply(this, args);
  };
}
// The app imports these from node:fs as ES module bindings: they follow the patched functions from here on.
syncBuiltinESMExports();

const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));
const run = statement.run;
statement.run = function (...args) {
  const what = () => `SQL ${this.source.replace(/\s+/g, ' ').slice(0, 60)}`;
  if (/^\s*COMMIT\b/i.test(this.source)) event(what, 'write', 'commit', 'sql-commit');
  else event(what, 'write');
  return run.apply(this, args);
};
const exec = Database.prototype.exec;
Database.prototype.exec = function (...args) {
  event(() => `SQL ${String(args[0]).replace(/\s+/g, ' ').slice(0, 60)}`, 'write');
  return exec.apply(this, args);
};
const backup = Database.prototype.backup;
Database.prototype.backup = function (file, options = {}) {
  return backup.call(this, file, {
    ...options,
    progress: (p) => {
      event(() => `a step of the copy to ${String(file).split('/').pop()}`, 'backup');
      return options.progress?.(p);
    },
  });
};

if (report) process.on('exit', () => original.writeFileSync(report, JSON.stringify({ counts, stoppedAt })));
