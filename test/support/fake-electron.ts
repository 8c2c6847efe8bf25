// Fakes shaped exactly like the parts of Electron's documented API the app
// uses to run its core process, so main's and the core's wiring are tested
// without Electron: utilityProcess.fork takes a file path and returns an
// EventEmitter with postMessage(message, transfer) and kill(); the child reads
// process.parentPort, whose 'message' event carries { data, ports };
// MessageChannelMain's ports deliver { data } events, and only after start().
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';

export class FakeMessagePortMain extends EventEmitter {
  other!: FakeMessagePortMain;
  private started = false;
  private closed = false;
  private readonly queue: unknown[] = [];

  postMessage(message: unknown): void {
    if (this.closed) return;
    // Structured clone, as Electron's ports do: a proxy or a function throws here.
    const data = structuredClone(message);
    queueMicrotask(() => this.other.deliver(data));
  }
  private deliver(data: unknown): void {
    if (this.closed) return;
    if (this.started) this.emit('message', { data });
    else this.queue.push(data);
  }
  start(): void {
    this.started = true;
    for (const data of this.queue.splice(0)) this.emit('message', { data });
  }
  close(): void {
    this.closed = true;
  }
  get isStarted(): boolean {
    return this.started;
  }
}

export class FakeMessageChannelMain {
  readonly port1 = new FakeMessagePortMain();
  readonly port2 = new FakeMessagePortMain();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}

/** What the child sees as process.parentPort. */
export class FakeParentPort extends EventEmitter {}

export class FakeUtilityProcess extends EventEmitter {
  readonly parentPort = new FakeParentPort();
  pid: number | undefined = 4242;
  killed = false;
  postMessage(message: unknown, transfer: FakeMessagePortMain[] = []): void {
    if (transfer.some((p) => !(p instanceof FakeMessagePortMain))) throw new TypeError('transfer must hold MessagePortMain objects');
    const data = structuredClone(message);
    queueMicrotask(() => this.parentPort.emit('message', { data, ports: transfer }));
  }
  kill(): boolean {
    if (this.killed) return false;
    this.killed = true;
    this.pid = undefined;
    queueMicrotask(() => this.emit('exit', 15));
    return true;
  }
  /** The child dies on its own (a crash). */
  crash(code = 139): void {
    this.pid = undefined;
    this.emit('exit', code);
  }
}

export interface ForkCall {
  modulePath: string;
  args: string[];
  options: Record<string, unknown>;
  child: FakeUtilityProcess;
}

/** utilityProcess: fork() checks its path as Electron would need it, and hands the child to `onChild`. */
export function fakeUtilityProcess(onChild: (child: FakeUtilityProcess) => void): { fork: (modulePath: string, args?: string[], options?: object) => FakeUtilityProcess; calls: ForkCall[] } {
  const calls: ForkCall[] = [];
  return {
    calls,
    fork(modulePath: string, args: string[] = [], options: object = {}) {
      if (typeof modulePath !== 'string' || !isAbsolute(modulePath)) throw new TypeError('utilityProcess.fork needs an absolute file path');
      if (!existsSync(modulePath)) throw new Error(`no such module: ${modulePath}`);
      const child = new FakeUtilityProcess();
      calls.push({ modulePath, args, options: options as Record<string, unknown>, child });
      onChild(child);
      return child;
    },
  };
}
