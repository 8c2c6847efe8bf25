// The test host's main side of the core process: a Node child (core-child.ts)
// over an IPC channel with structured clone, shaped as the CoreProcessHandle
// that Electron's main gets from a utility process and a MessagePort.
import { fork } from 'node:child_process';
import type { CoreInit, CoreProcessHandle, FromCore, ToCore } from '../../shared/core-link';

export function forkNodeCore(
  init: CoreInit,
  onPid?: (pid: number | undefined) => void,
  keychain: 'available' | 'locked' | 'unavailable' = 'available',
): CoreProcessHandle & { pid: number | undefined } {
  // The keychain's state goes as the child's one argument (its keychain lives in memory there).
  const child = fork(new URL('./core-child.ts', import.meta.url).pathname, [keychain], {
    serialization: 'advanced',
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send(init);
  // A call sent in the instant the core dies (a test kills it mid-flight) fails with EPIPE after send() returned: its exit
  // answers every pending call (shared/core-link.ts), so the channel's error is not news (unhandled, it failed the test run).
  child.on('error', () => {});
  onPid?.(child.pid);
  return {
    pid: child.pid,
    post: (m: ToCore) => {
      if (child.connected) child.send(m);
      else throw new Error('the core process is not running');
    },
    onMessage: (listener) => void child.on('message', (m) => listener(m as FromCore)),
    onExit: (listener) => void child.on('exit', (code) => listener(code)),
    kill: () => void child.kill('SIGKILL'),
  };
}
