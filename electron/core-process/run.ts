// The core process's wiring, written against the shapes of Electron's
// documented API so a fake of the same shape can test it: the first message on
// process.parentPort carries the CoreInit as `data` and a MessagePortMain in
// `ports`; a MessagePortMain delivers events with `.data` and only after start().
import type { CoreInit, Endpoint, FromCore, ToCore } from '../../shared/core-link';
import { serveCore, type CoreDeps } from '../core/app/core-server';

export interface MessagePortMainLike {
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
  start(): void;
}

export interface ParentPortLike {
  once(event: 'message', listener: (e: { data: unknown; ports: MessagePortMainLike[] }) => void): unknown;
}

/** Wait for main's first message, then serve the core over the port it carries. */
export function runCore(parentPort: ParentPortLike, deps: CoreDeps): Promise<void> {
  return new Promise((resolve, reject) => {
    parentPort.once('message', (e) => {
      const port = e.ports[0];
      if (!port) return reject(new Error('The core process was started without a message port.'));
      const link: Endpoint<ToCore, FromCore> = {
        post: (m) => port.postMessage(m),
        onMessage: (listener) => void port.on('message', (ev) => listener(ev.data as ToCore)),
      };
      const served = serveCore(link, e.data as CoreInit, deps);
      port.start();
      served.then(resolve, reject);
    });
  });
}
