// Another program holding the cache's write lock, in its own process
// (lock-holder-child.ts, run by node itself so its pid is the one holding the
// file): started, holding once it says so, and let go when asked (or by
// itself after `holdMs`).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface LockHolder {
  proc: ChildProcessWithoutNullStreams;
  /** Commit and exit (if it has not let go by itself already), and wait for it to be gone. */
  release: () => Promise<void>;
}

export async function holdLock(db: string, holdMs?: number): Promise<LockHolder> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/lock-holder-child.ts', db, ...(holdMs ? [String(holdMs)] : [])], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('holding')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.stdin.on('error', () => {}); // it may have let go by itself already
  return {
    proc,
    release: async () => {
      if (proc.exitCode === null) proc.stdin.write('release\n');
      await exited;
    },
  };
}
