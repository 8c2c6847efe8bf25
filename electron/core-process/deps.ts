// The core process's dependencies, built from an object shaped like the
// `electron` module as a utility process sees it: its `net` (Chromium's
// network stack: the system proxy, the OS certificate store) is the API
// client's transport. Plain data in, plain data out, so a test can hand it a
// fake `net` and see every request the client makes go through it.
import type { CoreDeps } from '../core/app/core-server';
import type { Transport } from '../core/seams';

/** The part of `electron` the core process uses. `net.fetch` takes a string or a Request, not a URL object. */
export interface ElectronNetLike {
  net: { fetch(input: string | Request, init?: RequestInit): Promise<Response> };
}

/** The client's transport over Electron's net.fetch (the client passes URL objects; net.fetch wants their text). */
export function electronFetch(electron: ElectronNetLike): Transport {
  return (input, init) => electron.net.fetch(input instanceof URL ? input.href : input, init);
}

/** The core's dependencies in the app: everything given, and Electron's net.fetch as the transport. */
export function coreDeps(electron: ElectronNetLike, rest: Omit<CoreDeps, 'fetch'>): CoreDeps {
  return { ...rest, fetch: electronFetch(electron) };
}
