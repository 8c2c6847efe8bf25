// `workbench contacted`: the pitch was sent. With no date: today on this
// computer's calendar; with no --to: the addresses the pitch pre-selects
// (personal ones; catch-alls only when that is all; never one on the
// do-not-contact list), and --to names only the opportunity's own addresses;
// with no --subject: the pitch's subject as it went out. `triage --contacted`
// is the same command. The stage moves on (New or Drafted to
// Contacted), so its follow-up comes due. --clear: not contacted after all.
import type { Ctx } from '../context';
import { parse, UsageError } from '../options';
import { act, contactedAction, TARGET_OPTIONS, targetsOf } from '../triage-act';

export const help = `  contacted --brand BRAND --id OPP_ID [--id …] [--on YYYY-MM-DD] [--to ADDRESS[,…] …] [--subject TEXT] | --clear
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
  const { brandId, ids } = await targetsOf(ctx, values);
  if (values.clear) {
    if (values.on !== undefined || values.to !== undefined || values.subject !== undefined) throw new UsageError('--clear takes no --on, --to or --subject.');
    return act(ctx, brandId, ids, { do: 'not-contacted' }, asJson);
  }
  await act(ctx, brandId, ids, contactedAction({ on: values.on, to: values.to, subject: values.subject, flag: '--on' }), asJson);
}
