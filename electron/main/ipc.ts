// Contract wiring: one IPC handler per method, the sender checked first, then
// the call forwarded to the core process, which parses its arguments with the
// contract's schema. Plain function over a minimal ipcMain shape, so tests run
// it with a fake.
import { channelOf, METHOD_NAMES, type MethodName } from '../../shared/contract-names';
import type { Result } from '../../shared/contract';

export interface IpcMainLike<E> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => Promise<Result<unknown>>): void;
}

export type Forward = (method: MethodName, args: unknown[]) => Promise<Result<unknown>>;

export function registerIpc<E>(ipc: IpcMainLike<E>, forward: Forward, isTrusted: (event: E) => boolean): void {
  for (const name of METHOD_NAMES) {
    ipc.handle(channelOf(name), async (event: E, ...args: unknown[]): Promise<Result<unknown>> => {
      if (!isTrusted(event)) return { ok: false, error: { kind: 'untrusted-sender', message: 'Refused: the call did not come from the app window.' } };
      return forward(name, args);
    });
  }
}
