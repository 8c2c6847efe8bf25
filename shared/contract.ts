// The app contract (renderer <-> main), declared once. Each method: its name
// (`domain:verb`), its argument schema, and its result type. Main implements a
// handler for every method (a missing one fails to compile), preload exposes
// exactly these methods as window.workbench, and the renderer gets the types.
import { z } from 'zod';
import type { MethodName } from './contract-names';

export { METHOD_NAMES, channelOf, type MethodName } from './contract-names';

export const contract = {
  'app:info': { args: z.tuple([]) },
  // `satisfies` refuses a missing name and an extra one alike.
} as const satisfies Record<MethodName, { args: z.ZodType<unknown[]> }>;

export interface AppInfo {
  name: string;
  version: string;
  demo: boolean;
}

export interface ContractResults {
  'app:info': AppInfo;
}

export type MethodArgs<M extends MethodName> = z.infer<(typeof contract)[M]['args']>;

/** The object the renderer sees as window.workbench: one async function per method. */
export type WorkbenchApi = {
  [M in MethodName]: (...args: MethodArgs<M>) => Promise<ContractResults[M]>;
};
