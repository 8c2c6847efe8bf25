// The bridge: exactly window.workbench, built from the contract's names.
// No raw ipcRenderer, no Node, no environment. The names come from
// shared/contract-names.ts (plain data: a sandboxed preload loads no npm
// package); the types from the declaration in shared/contract.ts.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channelOf, eventChannelOf, EVENT_NAMES, METHOD_NAMES } from '../../shared/contract-names';
import type { EventName, EventPayloads, MethodName, WorkbenchApi, WorkbenchMethod, WorkbenchMethods } from '../../shared/contract';

/** One method: its arguments go to main as they are (main checks the sender, the core parses them). */
function method<M extends MethodName>(name: M): WorkbenchMethod<M> {
  return (...args) => ipcRenderer.invoke(channelOf(name), ...args);
}

/** Every contract method is there (METHOD_NAMES names them all: shared/contract-names.ts checks it). */
function complete(methods: Record<string, unknown>): methods is WorkbenchMethods {
  return METHOD_NAMES.every((name) => typeof methods[name] === 'function');
}

function on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
  if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`No such event: ${String(event)}`);
  const channel = eventChannelOf(event);
  const wrapped = (_e: IpcRendererEvent, payload: EventPayloads[E]) => listener(payload);
  ipcRenderer.on(channel, wrapped);
  return () => ipcRenderer.removeListener(channel, wrapped);
}

const methods = Object.fromEntries(METHOD_NAMES.map((name) => [name, method(name)]));
if (!complete(methods)) throw new Error('The bridge lacks a contract method.');

contextBridge.exposeInMainWorld('workbench', { ...methods, on } satisfies WorkbenchApi);
