// What the CLI's triage commands share (stage, snooze, contacted, replied,
// undo, and the older `triage`): the opportunities they act on, carrying the
// action out through the one owner of the user's record (core/app/triage.ts,
// as the window does), and saying what changed.
import type { ListItem } from '../../shared/model';
import type { TriageAction } from '../../shared/pipeline';
import { checkDate } from '../../shared/rules';
import { applyAction, undoAction, type Applied } from '../core/app/triage';
import type { Cache } from '../core/store/cache';
import { prepareBrand, readItems } from '../core/store/list-items';
import { localToday } from '../core/store/opportunity-list';
import { readTriage } from '../core/store/triage';
import { settingsFor, withCache, type Ctx } from './context';
import { clip, json, plain } from './output';
import { brandIdOf } from './brand-name';
import { UsageError } from './options';
import { stoppedBefore } from '../core/app/record';

/** The flags that say which opportunities: the brand, and one --id or more. */
export const TARGET_OPTIONS = { brand: { type: 'string' }, id: { type: 'string', multiple: true } } as const;

export async function targetsOf(ctx: Ctx, values: { brand?: string; id?: string[] }): Promise<{ brandId: string; ids: string[] }> {
  const brandId = await brandIdOf(ctx, values.brand);
  const ids = values.id ?? [];
  if (ids.length === 0) throw new UsageError('--id is required (the opportunity id from `workbench list`; several --id for several).');
  return { brandId, ids };
}

/**
 * "The pitch was sent", as `workbench contacted` and `triage --contacted` both
 * say it: `on` a day (none, '' or 'today': today), to the addresses named in
 * `to` (each may list several, comma-separated; none: the ones the app
 * pre-selects), with the subject sent (none: the pitch's, filled).
 */
export function contactedAction(o: { on?: string; to?: readonly string[]; subject?: string; flag: string }): TriageAction {
  let on: string | undefined;
  if (o.on !== undefined && o.on !== '' && o.on !== 'today') {
    const r = checkDate(o.on, o.flag);
    if (!r.ok) throw new UsageError(r.message);
    on = r.value;
  }
  const to = o.to
    ?.flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter(Boolean);
  if (o.to !== undefined && !to?.length) throw new UsageError('--to names no address: give the addresses the pitch was sent to.');
  return { do: 'contacted', ...(on ? { on } : {}), ...(to ? { addresses: to } : {}), ...(o.subject !== undefined ? { subject: o.subject } : {}) };
}

/** Who a contact was recorded as written to, said on stderr (the addresses named, or the ones the app pre-selected). */
function sayWrittenTo(ctx: Ctx, cache: Cache, brandId: string, ids: readonly string[], action: TriageAction): void {
  if (action.do !== 'contacted' || ids.length > 20) return;
  for (const id of ids) {
    const used = readTriage(cache.readable, brandId, id).contacted_addresses;
    const who = ids.length > 1 ? ` (${id})` : '';
    ctx.io.err(
      used?.length
        ? `note: recorded as written to${who}: ${used.join(', ')}${action.addresses ? '' : ' (the addresses the app pre-selects; name others with --to)'}.\n`
        : `note: no address of this opportunity${who} can be written to (none, or all on the do-not-contact list).\n`,
    );
  }
}

/** One row's triage in a line: its stage and what the user recorded. */
export function stateLine(o: ListItem): string {
  const parts = [`stage ${o.stage ?? 'New'}`];
  if (o.contacted_at) parts.push(`contacted ${o.contacted_at}`);
  if (o.followed_up_at) parts.push(`followed up ${o.followed_up_at}`);
  if (o.snoozed_until) parts.push(`snoozed until ${o.snoozed_until}`);
  if (o.starred) parts.push('starred');
  if (o.note) parts.push(`note (${o.note.length} characters)`);
  return `${clip(plain(o.title), 60)}: ${parts.join(', ')}.`;
}

/** What an action did, as --json gives it: its log entry, its words, how many changed, and the rows now (the first thousand). */
function answerOf(cache: Cache, brandId: string, ids: readonly string[], done: Applied) {
  const items = readItems(cache.readable, prepareBrand(cache.writable, brandId), ids.slice(0, 1000));
  return { actionId: done.actionId, message: done.message, updated: done.changed.length, items };
}

function report(ctx: Ctx, cache: Cache, brandId: string, ids: readonly string[], done: Applied): void {
  const { items } = answerOf(cache, brandId, ids, done);
  ctx.io.out(`${done.message}${done.actionId !== null ? ' (`workbench undo` takes it back.)' : ''}\n`);
  if (items.length <= 20) for (const o of items) ctx.io.out(`  ${stateLine(o)}\n`);
}

/** Carry out actions (one, or a few in order) on the opportunities through the record's owner, and say what changed. */
export async function act(ctx: Ctx, brandId: string, ids: readonly string[], actions: TriageAction | readonly TriageAction[], asJson: boolean): Promise<void> {
  const { senderName } = settingsFor(ctx);
  await withCache(
    ctx,
    (cache) => {
      const list = (Array.isArray(actions) ? actions : [actions]) as readonly TriageAction[];
      const unique = [...new Set(ids)];
      const answers = [];
      // Ctrl-C heard before the write begins: exit 130, nothing changed.
      if (ctx.signal?.aborted) throw stoppedBefore('saving the change');
      for (const action of list) {
        // Today on this computer's calendar, in the user's time zone.
        const done = applyAction(cache, brandId, unique, action, { today: localToday(), senderName });
        if (asJson) answers.push(answerOf(cache, brandId, unique, done));
        else report(ctx, cache, brandId, unique, done);
        sayWrittenTo(ctx, cache, brandId, unique, action);
      }
      // One JSON document: the answer, or the answers of several actions in order.
      if (asJson) ctx.io.out(json(answers.length === 1 ? answers[0] : answers));
    },
    { changesRecord: true },
  );
}

/** Take back the latest action (of a brand, or the one named), and say what came back. */
export async function undo(ctx: Ctx, which: { brandId?: string; actionId?: number }, asJson: boolean): Promise<void> {
  await withCache(
    ctx,
    (cache) => {
      const done = undoAction(cache, which);
      if (asJson) ctx.io.out(json(answerOf(cache, done.brandId, done.changed, done)));
      else report(ctx, cache, done.brandId, done.changed, { ...done, actionId: null });
    },
    { changesRecord: true },
  );
}
