// Starting the core process, written against the shapes of Electron's
// documented API (utilityProcess.fork takes a file path; a MessageChannelMain's
// ports deliver events with `.data` and need start()), so a fake of the same
// shape tests it without Electron.
import type { CoreInit, CoreProcessHandle, FromCore, ToCore } from '../../shared/core-link';

export interface PortLike {
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
}

export interface UtilityProcessLike {
  postMessage(message: unknown, transfer?: PortLike[]): void;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

export interface ElectronForkApi {
  utilityProcess: {
    fork(
      modulePath: string,
      args?: string[],
      options?: { serviceName?: string; env?: NodeJS.ProcessEnv; stdio?: 'inherit' | 'pipe' | 'ignore'; respondToAuthRequestsFromMainProcess?: boolean },
    ): UtilityProcessLike;
  };
  MessageChannelMain: new () => { port1: PortLike; port2: PortLike };
}

/**
 * Fork the core at `modulePath` and hand it one end of a fresh channel with its init. Its net.fetch
 * logins (a proxy's 407) come to main's app 'login' event (respondToAuthRequestsFromMainProcess),
 * where the person is asked (proxy-login.ts); without it they would be cancelled in the core.
 */
export function forkCore(api: ElectronForkApi, modulePath: string, init: CoreInit, env: NodeJS.ProcessEnv): CoreProcessHandle {
  const child = api.utilityProcess.fork(modulePath, [], {
    serviceName: 'Outreach Workbench core',
    env,
    stdio: 'inherit',
    respondToAuthRequestsFromMainProcess: true,
  });
  const { port1, port2 } = new api.MessageChannelMain();
  child.postMessage(init, [port1]);
  const exitListeners: ((code: number | null) => void)[] = [];
  child.on('exit', (code) => {
    port2.close();
    for (const l of exitListeners) l(code);
  });
  const handle: CoreProcessHandle = {
    post: (m: ToCore) => port2.postMessage(m),
    onMessage: (listener) => void port2.on('message', (e) => listener(e.data as FromCore)),
    onExit: (listener) => void exitListeners.push(listener),
    kill: () => void child.kill(),
  };
  port2.start();
  return handle;
}
