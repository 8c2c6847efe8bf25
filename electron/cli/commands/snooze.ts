// `workbench snooze`: out of the list until a day (tomorrow, next week, in a
// month, or a date), or back now with --wake.
import { snoozeDates } from '../../../shared/pipeline';
import { checkDate } from '../../../shared/rules';
import { localToday } from '../../core/store/opportunity-list';
import type { Ctx } from '../context';
import { parse, UsageError } from '../options';
import { act, TARGET_OPTIONS, targetsOf } from '../triage-act';

export const help = `  snooze --brand BRAND --id OPP_ID [--id …] (--until YYYY-MM-DD|tomorrow|next-week|next-month | --wake)
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, { ...TARGET_OPTIONS, until: { type: 'string' }, wake: { type: 'boolean' } });
  const { brandId, ids } = await targetsOf(ctx, values);
  if ((values.until === undefined) === !values.wake) throw new UsageError('Say --until DAY (tomorrow, next-week, next-month or YYYY-MM-DD), or --wake.');
  let until: string | null = null;
  if (values.until !== undefined) {
    const days = snoozeDates(localToday());
    const named: Record<string, string> = { tomorrow: days.tomorrow, 'next-week': days.nextWeek, 'next-month': days.inAMonth };
    const r = checkDate(named[values.until] ?? values.until, '--until');
    if (!r.ok) throw new UsageError(r.message);
    until = r.value;
  }
  await act(ctx, brandId, ids, { do: 'snooze', until }, asJson);
}
