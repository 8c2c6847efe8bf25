// `workbench contacted`: the pitch was sent. With no date: today on this
// computer's calendar; with no --to: the addresses the pitch pre-selects
// (never a catch-all nor one on the do-not-contact list); with no --subject:
// the pitch's subject as it went out. The stage moves on (New or Drafted to
// Contacted), so its follow-up comes due. --clear: not contacted after all.
import { checkDate } from '../../../shared/rules';
import type { Ctx } from '../context';
import { parse, UsageError } from '../options';
import { act, TARGET_OPTIONS, targetsOf } from '../triage-act';

export const help = `  contacted --brand ID --id OPP_ID [--id …] [--on YYYY-MM-DD] [--to ADDRESS …] [--subject TEXT] | --clear
                                        the pitch was sent (today, to the pre-selected addresses, unless said)
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, {
    ...TARGET_OPTIONS,
    on: { type: 'string' },
    to: { type: 'string', multiple: true },
    subject: { type: 'string' },
    clear: { type: 'boolean' },
  });
  const { brandId, ids } = targetsOf(values);
  if (values.clear) {
    if (values.on !== undefined || values.to !== undefined || values.subject !== undefined) throw new UsageError('--clear takes no --on, --to or --subject.');
    return act(ctx, brandId, ids, { do: 'not-contacted' }, asJson);
  }
  let on: string | undefined;
  if (values.on !== undefined) {
    const r = checkDate(values.on, '--on');
    if (!r.ok) throw new UsageError(r.message);
    on = r.value;
  }
  await act(
    ctx,
    brandId,
    ids,
    {
      do: 'contacted',
      ...(on ? { on } : {}),
      ...(values.to ? { addresses: values.to.map((a) => a.trim()) } : {}),
      ...(values.subject !== undefined ? { subject: values.subject } : {}),
    },
    asJson,
  );
}
