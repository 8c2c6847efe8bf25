// What every domain's slice of the contract builds its schemas from: the
// common argument pieces, and a result declared in shared/model.ts (a type
// carrier, unchecked at run time: results are the core's own).
// Each method's schemas are built the first time they are read (`method`),
// not when the module loads: the core's start builds none of them, its first
// list page only those of the methods it calls, and never a result's.
import { z } from 'zod';
import { once } from '../once';
import { brandIdSchema } from '../rules';

export { once };

/** A result whose type is declared elsewhere (shared/model.ts): a type carrier, unchecked at run time. */
export const shaped = <T>() => z.custom<T>();

export const brandId = brandIdSchema;
export const oppId = z.string().min(1).max(200);
export const text = (max: number) => z.string().max(max);
export const int = () => z.number().int();
export const none = z.tuple([]);
export const one = <T extends z.ZodType>(t: T) => z.tuple([t]);
/** A job's answer when it starts (sync, export): its id, which its events carry. */
export const jobStarted = () => z.object({ jobId: z.string() });

/** A method's declaration: its argument and result schemas, each built the first time it is read, then kept. */
export function method<A extends z.ZodType<unknown[]>, R extends z.ZodType>(args: () => A, result: () => R): { readonly args: A; readonly result: R } {
  const a = once(args);
  const r = once(result);
  return {
    get args() {
      return a();
    },
    get result() {
      return r();
    },
  };
}

/** Schemas named by key, each built the first time its key is read, then kept (the events' payloads). */
export function builtOnRead<T extends Record<string, () => z.ZodType>>(makers: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const out = {};
  for (const [key, make] of Object.entries(makers)) Object.defineProperty(out, key, { get: once(make), enumerable: true });
  return out as { readonly [K in keyof T]: ReturnType<T[K]> };
}

/** A slice of the contract: methods named `domain:verb`, each with its argument and result schemas. */
export type ContractSlice = Record<`${string}:${string}`, { readonly args: z.ZodType<unknown[]>; readonly result: z.ZodType }>;
