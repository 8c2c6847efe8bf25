// The bridge: exactly window.workbench, built from the contract's names.
// No raw ipcRenderer, no Node, no environment.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channelOf, eventChannelOf, EVENT_NAMES, METHOD_NAMES } from '../../shared/contract-names';
import type { WorkbenchApi } from '../../shared/contract';

const methods = Object.fromEntries(METHOD_NAMES.map((m) => [m, (...args: unknown[]) => ipcRenderer.invoke(channelOf(m), ...args)]));

const api = {
  ...methods,
  on(event: string, listener: (payload: unknown) => void): () => void {
    if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`No such event: ${event}`);
    const channel = eventChannelOf(event as (typeof EVENT_NAMES)[number]);
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => ipcRenderer.removeListener(channel, wrapped);
  },
} as unknown as WorkbenchApi;

contextBridge.exposeInMainWorld('workbench', api satisfies WorkbenchApi);
