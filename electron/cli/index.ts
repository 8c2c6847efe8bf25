// The `workbench` executable: real standard streams and environment.
import { run } from './main';

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
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  isTTY: process.stderr.isTTY === true,
  readStdin,
  env: process.env,
});
process.exitCode = code;
