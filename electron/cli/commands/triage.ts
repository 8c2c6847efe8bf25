// `workbench triage`: the older command, kept as an alias of the intent
// commands (stage, contacted) plus the note and the star. --status is
// deprecated: the stage is the one local triage now, so a status is carried
// onto the stage it stands for (In Progress: Drafted, Done: Won, Archived:
// Not a fit), said in a line on stderr. --contacted is `workbench contacted`
// (one implementation): alone it means today, and the addresses written to
// are recorded, those named with --to, else the ones the app pre-selects (its
// personal addresses; never a catch-all unless that is all; never one on the
// do-not-contact list). Each change goes through the one owner of the user's
// record, as in the window.
import { STATUSES, type Status } from '../../../shared/domain';
import { ARCHIVED_REASON, STAGE_OF_LEGACY_STATUS, type TriageAction } from '../../../shared/pipeline';
import type { Ctx } from '../context';
import { oneOf, parse, UsageError } from '../options';
import { plain } from '../output';
import { act, contactedAction, TARGET_OPTIONS, targetsOf } from '../triage-act';

export const help = `  triage --brand BRAND --id OPP_ID [--note TEXT] [--star|--unstar] [--contacted [YYYY-MM-DD] [--to ADDRESS,…]]
       [--status New|"In Progress"|Done|Archived]   (deprecated: use \`workbench stage\`)
                                        --contacted alone: today; --to: the addresses written to
                                        (else the ones the app pre-selects)
`;

/** `--contacted` with no date (at the end, or before another option) means today, as documented. */
function withContactedDate(args: string[]): string[] {
  return args.flatMap((a, i) => (a === '--contacted' && (i === args.length - 1 || args[i + 1]!.startsWith('--')) ? [a, 'today'] : [a]));
}

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(withContactedDate(args), {
    ...TARGET_OPTIONS,
    status: { type: 'string' },
    note: { type: 'string' },
    star: { type: 'boolean' },
    unstar: { type: 'boolean' },
    contacted: { type: 'string' },
    to: { type: 'string', multiple: true },
  });
  const { brandId, ids } = await targetsOf(ctx, values);
  if (values.to !== undefined && values.contacted === undefined) throw new UsageError('--to goes with --contacted: the addresses the pitch was sent to.');
  const actions: TriageAction[] = [];
  if (values.status !== undefined) {
    const status: Status | undefined = values.status.toLowerCase() === 'none' ? 'New' : oneOf(STATUSES, values.status, '--status');
    const stage = STAGE_OF_LEGACY_STATUS[status!];
    ctx.io.err(
      `note: \`triage --status\` is deprecated: the outreach stage is the one triage now. --status ${status} was taken as the stage ${stage}; next time run \`workbench stage --brand ${brandId} --id ${plain(ids[0]!)} "${stage}"\`.\n`,
    );
    actions.push({ do: 'stage', stage, reason: stage === 'Not a fit' ? ARCHIVED_REASON : null });
  }
  if (values.contacted !== undefined) actions.push(contactedAction({ on: values.contacted, to: values.to, flag: '--contacted' }));
  if (values.note !== undefined) actions.push({ do: 'note', text: values.note });
  if (values.star || values.unstar) actions.push({ do: 'star', on: values.star === true });
  if (actions.length === 0) throw new UsageError('Say what to change: --note, --star, --unstar, --contacted (or `workbench stage`).');
  await act(ctx, brandId, ids, actions, asJson);
}
