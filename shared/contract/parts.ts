// What every domain's slice of the contract builds its schemas from: the
// common argument pieces, and a result declared in shared/model.ts (a type
// carrier, unchecked at run time: results are the core's own).
import { z } from 'zod';
import { brandIdSchema } from '../rules';

/** A result whose type is declared elsewhere (shared/model.ts): a type carrier, unchecked at run time. */
export const shaped = <T>() => z.custom<T>();

export const brandId = brandIdSchema;
export const oppId = z.string().min(1).max(200);
export const text = (max: number) => z.string().max(max);
export const int = () => z.number().int();
export const none = z.tuple([]);
export const one = <T extends z.ZodType>(t: T) => z.tuple([t]);
/** A job's answer when it starts (sync, export): its id, which its events carry. */
export const jobStarted = z.object({ jobId: z.string() });

/** A slice of the contract: methods named `domain:verb`, each with its argument and result schemas. */
export type ContractSlice = Record<`${string}:${string}`, { args: z.ZodType<unknown[]>; result: z.ZodType }>;
