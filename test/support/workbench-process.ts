// The real `workbench` bin in its own process, as a person's shell starts it
// (node itself runs it, so a signal sent to the pid reaches the CLI): its
// output as it comes, its exit, and the signals a person or the system sends.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { DEMO_KEY } from '../../electron/simulator/server';

export interface WorkbenchProcess {
  proc: ChildProcessWithoutNullStreams;
  /** Resolves once stderr or stdout has printed text matching `pattern`. */
  printed(pattern: RegExp): Promise<void>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
}

export function workbench(args: string[], where: { url: string; db: string; env?: NodeJS.ProcessEnv }): WorkbenchProcess {
  const proc = spawn(process.execPath, ['electron/cli/bin.mjs', ...args], {
    env: { ...process.env, TRAKKR_BASE_URL: where.url, TRAKKR_API_KEY: DEMO_KEY, WORKBENCH_DB: where.db, WORKBENCH_RATE: '0', ...where.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of waiters.splice(0)) {
      if (w.pattern.test(out + err)) w.resolve();
      else waiters.push(w);
    }
  };
  proc.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    check();
  });
  proc.stderr.on('data', (c: Buffer) => {
    err += c.toString();
    check();
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal, out, err })),
  );
  return {
    proc,
    done,
    printed: (pattern) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        check();
        void done.then(() => reject(new Error(`the command ended without printing ${pattern}:\n${out}\n${err}`)));
      }),
  };
}
