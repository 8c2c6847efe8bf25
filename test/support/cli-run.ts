// The `workbench` CLI run in this process against the simulator and one cache
// file, as a user's shell would run it (its own environment, no TTY, a key in
// memory): the exit code and what it printed.
import { run, type Io } from '../../electron/cli/main';
import { MemorySecretStore } from '../../electron/core/seams';
import { DEMO_KEY } from '../../electron/simulator/server';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** `onOut`: told each piece the command prints on stdout, as it prints it (a test acts at that moment: before the close). */
export async function runCli(args: string[], where: { url: string; db: string; onOut?: (s: string) => void }): Promise<CliRun> {
  return runCliIn(args, { TRAKKR_BASE_URL: where.url, WORKBENCH_DB: where.db, WORKBENCH_RATE: '0', TRAKKR_API_KEY: DEMO_KEY }, where.onOut);
}

/** The CLI with exactly this environment (nothing else set, e.g. the options given as flags) and an empty keychain. */
export async function runCliIn(args: string[], env: NodeJS.ProcessEnv, onOut?: (s: string) => void): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: Io = {
    out: (s) => {
      out += s;
      onOut?.(s);
    },
    err: (s) => (err += s),
    isTTY: false,
    readStdin: async () => '',
    env,
    secrets: new MemorySecretStore(),
  };
  const code = await run(args, io);
  return { code, out, err };
}
