// What the CLI's triage commands share (stage, snooze, contacted, replied,
// undo, and the older `triage`): the opportunities they act on, carrying the
// action out through the one owner of the user's record (core/app/triage.ts,
// as the window does), and saying what changed.
import type { ListItem } from '../../shared/model';
import type { TriageAction } from '../../shared/pipeline';
import { applyAction, undoAction, type Applied } from '../core/app/triage';
import type { Cache } from '../core/store/cache';
import { prepareBrand, readItems } from '../core/store/list-items';
import { localToday } from '../core/store/opportunity-list';
import { settingsFor, withCache, type Ctx } from './context';
import { clip, json, plain } from './output';
import { brandOf, UsageError } from './options';

/** The flags that say which opportunities: the brand, and one --id or more. */
export const TARGET_OPTIONS = { brand: { type: 'string' }, id: { type: 'string', multiple: true } } as const;

export function targetsOf(values: { brand?: string; id?: string[] }): { brandId: string; ids: string[] } {
  const brandId = brandOf(values.brand);
  const ids = values.id ?? [];
  if (ids.length === 0) throw new UsageError('--id is required (the opportunity id from `workbench list`; several --id for several).');
  return { brandId, ids };
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
      for (const action of list) {
        // Today on this computer's calendar, in the user's time zone.
        const done = applyAction(cache, brandId, unique, action, { today: localToday(), senderName });
        if (asJson) answers.push(answerOf(cache, brandId, unique, done));
        else report(ctx, cache, brandId, unique, done);
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
