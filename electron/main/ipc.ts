// Contract wiring: one IPC handler per method, the sender checked first, the
// arguments parsed by core's dispatch. Plain function over a minimal ipcMain
// shape, so tests run it with a fake.
import { channelOf, METHOD_NAMES } from '../../shared/contract-names';
import type { Result } from '../../shared/contract';
import { dispatch, type Handlers } from '../core/app/handlers';

export interface IpcMainLike<E> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => Promise<Result<unknown>>): void;
}

export function registerIpc<E>(ipc: IpcMainLike<E>, handlers: Handlers, isTrusted: (event: E) => boolean): void {
  for (const name of METHOD_NAMES) {
    ipc.handle(channelOf(name), async (event: E, ...args: unknown[]): Promise<Result<unknown>> => {
      if (!isTrusted(event)) return { ok: false, error: { kind: 'refused', message: 'Refused: the call did not come from the app window.' } };
      return dispatch(handlers, name, args);
    });
  }
}
