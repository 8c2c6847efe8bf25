// The test host's core process: a plain Node child that runs the same
// runCore() as Electron's utility process. Node's IPC channel (structured
// clone, `serialization: 'advanced'`) stands in for parentPort and the
// MessagePort; like Electron's, the port holds messages until start().
import { runCore, type MessagePortMainLike, type ParentPortLike } from '../../electron/core-process/run';
import type { Keychain } from '../../electron/core/app/keys';
import type { KeychainState } from '../../electron/core/secrets';

/** A keychain in memory (the real one is tested on its own, against gnome-keyring); locked or unavailable when the host says so. */
class HostKeychain implements Keychain {
  value: string | null = null;
  st: KeychainState = (['locked', 'unavailable'] as const).find((s) => s === process.argv[2]) ?? 'available';
  async state() {
    return this.st;
  }
  async get() {
    return this.st === 'available' ? this.value : null;
  }
  async set(k: string) {
    this.value = k;
  }
  async clear() {
    this.value = null;
  }
}

function ipcPort(): MessagePortMainLike {
  const listeners: ((e: { data: unknown }) => void)[] = [];
  const queue: unknown[] = [];
  let started = false;
  process.on('message', (data) => {
    if (!started) queue.push(data);
    else for (const l of listeners) l({ data });
  });
  return {
    on: (_event, listener) => listeners.push(listener),
    postMessage: (m) => void process.send!(m),
    start: () => {
      started = true;
      for (const data of queue.splice(0)) for (const l of listeners) l({ data });
    },
  };
}

const parentPort: ParentPortLike = {
  once: (_event, listener) =>
    process.once('message', (init) => {
      listener({ data: init, ports: [ipcPort()] });
    }),
};

runCore(parentPort, { keychain: new HostKeychain(), exit: (code) => process.exit(code) }).catch((e: unknown) => {
  console.error('core child:', e);
  process.exit(1);
});
