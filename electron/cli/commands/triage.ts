// `workbench triage`: set an opportunity's status, note, star or contacted date
// in the cache (the user's data; sync never overwrites it). Marked contacted,
// the outreach stage moves on as it does in the app (New or Drafted to
// Contacted), so its follow-up comes due, and the addresses written to are
// recorded: those named with --to, else the ones the app pre-selects (its
// personal addresses; never a catch-all unless that is all; never one on the
// do-not-contact list). --contacted alone means today.
import { STATUSES, type Status } from '../../../shared/domain';
import { STAGE_TO_STATUS, stageAfter, type Stage } from '../../../shared/pipeline';
import { stoppedBefore } from '../../core/app/record';
import { localToday } from '../../core/store/opportunities';
import { checkDate } from '../../../shared/rules';
import { withCache, type Ctx } from '../context';
import { plain } from '../output';
import { brandOf, oneOf, parse, UsageError } from '../options';
import type { Contact } from '../../../shared/contacts';

/** The opportunity's addresses named in --to (any case), or a usage error naming the ones it does not have. */
function addressesOf(contacts: readonly Contact[], list: string): string[] {
  const valid = new Map(contacts.filter((c) => c.valid).map((c) => [c.identity, c.email]));
  const asked = list
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const unknown = asked.filter((a) => !valid.has(a.toLowerCase()));
  if (unknown.length || asked.length === 0)
    throw new UsageError(
      `--to names ${unknown.length ? unknown.join(', ') : 'no address'}, not an address of this opportunity. Its addresses: ${[...valid.values()].join(', ') || 'none'}.`,
    );
  return [...new Set(asked.map((a) => valid.get(a.toLowerCase())!))];
}

export const help = `  triage --brand ID --id OPP_ID [--status New|"In Progress"|Done|Archived|none]
       [--note TEXT] [--star|--unstar] [--contacted [YYYY-MM-DD] [--to ADDRESS,…]]
                                        --contacted alone: today; --to: the addresses written to
                                        (else the ones the app pre-selects)
`;

/** `--contacted` with no date (at the end, or before another option) means today, as documented. */
function withContactedDate(args: string[]): string[] {
  return args.flatMap((a, i) => (a === '--contacted' && (i === args.length - 1 || args[i + 1]!.startsWith('--')) ? [a, 'today'] : [a]));
}

export async function run(ctx: Ctx, args: string[]): Promise<void> {
  const { values } = parse(withContactedDate(args), {
    to: { type: 'string' },
    brand: { type: 'string' },
    id: { type: 'string' },
    status: { type: 'string' },
    note: { type: 'string' },
    star: { type: 'boolean' },
    unstar: { type: 'boolean' },
    contacted: { type: 'string' },
  });
  const brandId = brandOf(values.brand);
  if (!values.id) throw new UsageError('--id is required (the opportunity id from `workbench list`).');
  let status: Status | null | undefined;
  if (values.status !== undefined) status = values.status.toLowerCase() === 'none' ? null : oneOf(STATUSES, values.status, '--status');
  let contacted: string | undefined;
  if (values.contacted !== undefined) {
    const d = values.contacted === '' || values.contacted === 'today' ? localToday() : values.contacted;
    const r = checkDate(d, '--contacted');
    if (!r.ok) throw new UsageError(r.message);
    contacted = r.value;
  }
  if (status === undefined && values.note === undefined && !values.star && !values.unstar && contacted === undefined) {
    throw new UsageError('Say what to change: --status, --note, --star, --unstar or --contacted.');
  }
  if (values.to !== undefined && contacted === undefined) throw new UsageError('--to goes with --contacted: the addresses the pitch was sent to.');
  await withCache(
    ctx,
    (cache) => {
      if (!cache.opportunities.exists(brandId, values.id!))
        throw new UsageError(`No opportunity ${values.id} for brand ${brandId} in the cache. Run \`workbench sync\`, or check the id with \`workbench list\`.`);
      // Contacted: the stage moves on (forward only), its status with it unless --status says otherwise, and a snooze ends.
      const stage = contacted ? stageAfter('mailed', (cache.triage.get(brandId, values.id!)?.stage ?? null) as Stage | null) : undefined;
      const to = values.to === undefined ? undefined : addressesOf(cache.opportunities.get(brandId, values.id!)!.contacts, values.to);
      if (ctx.signal?.aborted) throw stoppedBefore('saving the change');
      cache.triage.set(brandId, values.id!, {
        ...(stage ? { stage: stage === 'New' ? null : stage, status: STAGE_TO_STATUS[stage], snoozed_until: null } : {}),
        ...(to ? { contacted_addresses: to } : {}),
        ...(status !== undefined ? { status } : {}),
        ...(values.note !== undefined ? { note: values.note } : {}),
        ...(values.star ? { starred: true } : values.unstar ? { starred: false } : {}),
        ...(contacted ? { contacted_at: contacted } : {}),
      });
      const d = cache.opportunities.get(brandId, values.id!)!;
      const used = cache.triage.get(brandId, values.id!)?.contacted_addresses;
      ctx.io.out(
        `${plain(d.item.title)}: status ${d.item.status}${d.item.stage ? `, stage ${d.item.stage}` : ''}${d.triage.starred ? ', starred' : ''}${d.triage.note ? `, note saved (${d.triage.note.length} characters)` : ''}${d.triage.contacted_at ? `, contacted ${d.triage.contacted_at}` : ''}.\n`,
      );
      if (contacted)
        ctx.io.err(
          used?.length
            ? `note: recorded as written to: ${used.join(', ')}${to ? '' : ' (the addresses the app pre-selects; name others with --to)'}.\n`
            : 'note: no address of this opportunity can be written to (none, or all on the do-not-contact list).\n',
        );
    },
    { changesRecord: true },
  );
}
