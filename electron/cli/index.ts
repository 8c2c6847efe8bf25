// The `workbench` executable: real standard streams and environment, and the
// user stopping it. Ctrl-C (or SIGTERM) during a command that writes to the
// cache asks it to stop where it safely can (a sync finishes or rolls back the
// page in progress, releases its lock and exits 130); a second one stops at
// once (SQLite rolls back what was not committed). Elsewhere it stops at once:
// reads leave nothing half-done. A closed pipe (`workbench list | head`) ends
// the output quietly instead of with a stack trace.
import { WorkbenchError } from '../../shared/errors';
import { writeSections } from './context';
import { EXIT_INTERRUPTED } from './exit-codes';
import { run } from './main';

const stop = new AbortController();
let stops = 0;
function onSignal(signal: NodeJS.Signals): void {
  stops++;
  if (stops > 1 || writeSections.open === 0) {
    if (stops > 1) process.stderr.write('Stopped at once.\n');
    process.exit(EXIT_INTERRUPTED);
  }
  process.stderr.write(`\nStopping (${signal}): the work in progress is finished or rolled back first. Press Ctrl-C again to stop at once.\n`);
  stop.abort(new WorkbenchError('cancelled', 'Stopped.'));
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

/** A stream whose reader went away (EPIPE) takes no more output, and the command ends as it would. */
function quietWhenClosed(stream: NodeJS.WriteStream): (s: string) => void {
  let closed = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    closed = true;
  });
  return (s) => {
    if (!closed) stream.write(s);
  };
}

async function readStdin(): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) {
    // Read one line without echoing it: a key typed or pasted stays off the screen.
    return new Promise((resolve) => {
      let buf = '';
      stdin.setRawMode(true);
      stdin.resume();
      stdin.setEncoding('utf8');
      const onData = (c: string) => {
        for (const ch of c) {
          if (ch === '\r' || ch === '\n' || ch === '\u0004') {
            stdin.setRawMode(false);
            stdin.pause();
            stdin.off('data', onData);
            process.stderr.write('\n');
            resolve(buf);
            return;
          }
          if (ch === '\u0003') process.exit(130);
          if (ch === '\u007f') buf = buf.slice(0, -1);
          else buf += ch;
        }
      };
      stdin.on('data', onData);
    });
  }
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const code = await run(process.argv.slice(2), {
  out: quietWhenClosed(process.stdout),
  err: quietWhenClosed(process.stderr),
  isTTY: process.stderr.isTTY === true,
  readStdin,
  env: process.env,
  signal: stop.signal,
});
process.exitCode = code;
