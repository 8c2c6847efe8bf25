// `workbench stage`: set the outreach stage of one opportunity or several, as
// the window's stage keys do (New, Drafted, Contacted, Followed up, Replied,
// Won, Not a fit with a reason).
import { STAGES } from '../../../shared/pipeline';
import type { Ctx } from '../context';
import { oneOf, parse, UsageError } from '../options';
import { act, TARGET_OPTIONS, targetsOf } from '../triage-act';

export const help = `  stage --brand BRAND --id OPP_ID [--id …] STAGE [--reason TEXT]
                                        New, Drafted, Contacted, "Followed up", Replied, Won or "Not a fit"
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values, positionals } = parse(args, { ...TARGET_OPTIONS, reason: { type: 'string' } });
  const { brandId, ids } = await targetsOf(ctx, values);
  const stage = oneOf(STAGES, positionals.join(' ') || undefined, 'The stage');
  if (!stage) throw new UsageError(`Say the stage: one of ${STAGES.join(', ')}.`);
  if (values.reason !== undefined && stage !== 'Not a fit') throw new UsageError('--reason goes with the stage "Not a fit".');
  await act(ctx, brandId, ids, { do: 'stage', stage, reason: values.reason ?? null }, asJson);
}
