// The bridge: exactly window.workbench, built from the contract.
import { contextBridge, ipcRenderer } from 'electron';
import { channelOf, METHOD_NAMES } from '../../shared/contract-names';
import type { WorkbenchApi } from '../../shared/contract';

const api = Object.fromEntries(
  METHOD_NAMES.map((m) => [m, (...args: unknown[]) => ipcRenderer.invoke(channelOf(m), ...args)]),
) as WorkbenchApi;

contextBridge.exposeInMainWorld('workbench', api satisfies WorkbenchApi);
