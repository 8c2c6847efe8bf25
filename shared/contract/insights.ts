// The insights' slice of the contract: visibility scores and citations as the
// cache holds them. Implemented in electron/core/app/insights.ts.
import { z } from 'zod';
import { CITATION_MODES } from '../domain';
import type { ScoreRow } from '../model';
import { dateSchema } from '../rules';
import { brandId, one, shaped, text, method, type ContractSlice } from './parts';

export const insightsContract = {
  'scores:get': method(
    () =>
      one(z.strictObject({ brandId, breakdown: z.enum(['', 'model', 'prompt']), start: dateSchema('start').optional(), end: dateSchema('end').optional() })),
    () => z.object({ rows: z.array(shaped<ScoreRow>()), brandName: z.string().nullable(), fetchedAt: z.string().nullable() }),
  ),
  'citations:get': method(
    () =>
      one(
        z.strictObject({
          brandId,
          mode: z.enum(CITATION_MODES),
          domain: text(200).optional(),
          start: dateSchema('start').optional(),
          end: dateSchema('end').optional(),
        }),
      ),
    () =>
      z.object({
        items: z.array(z.record(z.string(), z.unknown())),
        updatedAt: z.string().nullable(),
        summary: z.unknown(),
        fetchedAt: z.string().nullable(),
      }),
  ),
} as const satisfies ContractSlice;
