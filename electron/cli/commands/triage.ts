// `workbench triage`: the older command, kept as an alias of the intent
// commands (stage, contacted) plus the note and the star. --status is
// deprecated: the stage is the one local triage now, so a status is carried
// onto the stage it stands for (In Progress: Drafted, Done: Won, Archived:
// Not a fit), said in a line on stderr. Each change goes through the one
// owner of the user's record, as in the window.
import { STATUSES, type Status } from '../../../shared/domain';
import { ARCHIVED_REASON, STAGE_OF_LEGACY_STATUS, type TriageAction } from '../../../shared/pipeline';
import { checkDate } from '../../../shared/rules';
import { localToday } from '../../core/store/opportunity-list';
import type { Ctx } from '../context';
import { oneOf, parse, UsageError } from '../options';
import { act, TARGET_OPTIONS, targetsOf } from '../triage-act';

export const help = `  triage --brand ID --id OPP_ID [--note TEXT] [--star|--unstar] [--contacted [YYYY-MM-DD]]
       [--status New|"In Progress"|Done|Archived]   (deprecated: use \`workbench stage\`)
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, {
    ...TARGET_OPTIONS,
    status: { type: 'string' },
    note: { type: 'string' },
    star: { type: 'boolean' },
    unstar: { type: 'boolean' },
    contacted: { type: 'string' },
  });
  const { brandId, ids } = targetsOf(values);
  const actions: TriageAction[] = [];
  if (values.status !== undefined) {
    const status: Status | undefined = values.status.toLowerCase() === 'none' ? 'New' : oneOf(STATUSES, values.status, '--status');
    const stage = STAGE_OF_LEGACY_STATUS[status!];
    ctx.io.err(
      `note: \`triage --status\` is deprecated: the outreach stage is the one triage now. --status ${status} was taken as the stage ${stage}; next time run \`workbench stage --brand ${brandId} --id ${ids[0]} "${stage}"\`.\n`,
    );
    actions.push({ do: 'stage', stage, reason: stage === 'Not a fit' ? ARCHIVED_REASON : null });
  }
  if (values.contacted !== undefined) {
    const d = values.contacted === '' || values.contacted === 'today' ? localToday() : values.contacted;
    const r = checkDate(d, '--contacted');
    if (!r.ok) throw new UsageError(r.message);
    actions.push({ do: 'contacted', on: r.value });
  }
  if (values.note !== undefined) actions.push({ do: 'note', text: values.note });
  if (values.star || values.unstar) actions.push({ do: 'star', on: values.star === true });
  if (actions.length === 0) throw new UsageError('Say what to change: --note, --star, --unstar, --contacted (or `workbench stage`).');
  await act(ctx, brandId, ids, actions, asJson);
}
