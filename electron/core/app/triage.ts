// The user's record has one owner, this: every triage action (a stage, marked
// contacted with the addresses and subject sent, the follow-up, replied, won,
// not a fit with its reason, snooze, note, star), one or many opportunities at
// once, and its undo, for the window (the handlers below) and the CLI alike.
// The stage rules are shared/pipeline.ts's triagePatchOf, applied here only.
// Each action is one write transaction that logs what it changed, field by
// field, so it can be taken back; its answer carries what the window repaints
// (the changed rows, the detail, which rows leave the list, the follow-ups
// due): one key, one round trip. Also the follow-ups due, the no-reply rule,
// an opportunity's history and the do-not-contact list.
import type { ContractHandlers, TriageResult } from '../../../shared/contract';
import { addressIdentity } from '../../../shared/contacts';
import { WorkbenchError } from '../../../shared/errors';
import type { ListFilter } from '../../../shared/model';
import {
  actionLabel,
  noReplyExpired,
  stageAfter,
  triagePatchOf,
  type PipelineEvent,
  type Stage,
  type TriageAction,
  type TriageActionKind,
} from '../../../shared/pipeline';
import type { TriageFields } from '../../../shared/triage-fields';
import type { Cache } from '../store/cache';
import { preselectedAddresses } from '../store/contacted-addresses';
import { historyAtOutlet, historyOf, addHistory } from '../store/history';
import { prepareBrand, readItems } from '../store/list-items';
import { contactsOf, missingIds, readOpportunity } from '../store/opportunity-detail';
import { chipCountsAndTotal, leavingList, prepareList } from '../store/opportunity-list';
import { dueCounts, followedUp, readTriage, readTriageOf, restoreTriage, writeTriage, type FieldChange } from '../store/triage';
import { actionById, actionChanges, latestAction, logAction, markUndone } from '../store/triage-actions';
import type { DomainDeps } from './domain-deps';
import { NOT_IN_CACHE, sentDefaults } from './draft-view';

/** A changed row of each opportunity is in the answer up to this many; past it the window reads its list again. */
const ITEMS_IN_ANSWER = 500;
/** How many missing ids a refusal names before it says "and N more". */
const NAMED_MISSING = 3;

/** Plain words for an action refused because some of its opportunities are gone. */
export function missingMessage(missing: readonly string[], asked: number): string {
  const named = missing.slice(0, NAMED_MISSING).join(', ');
  const more = missing.length > NAMED_MISSING ? ` and ${missing.length - NAMED_MISSING} more` : '';
  const which = missing.length === 1 ? '1 of these opportunities is' : `${missing.length} of these ${asked} opportunities are`;
  return `Nothing was changed: ${which} not in the cache (it may have been reset): ${named}${more}.`;
}

const plural = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'opportunity' : 'opportunities'}`;

/** What an action did: its log entry, the opportunities it changed, and the words for it. */
export interface Applied {
  actionId: number | null;
  /** The opportunities it changed. */
  changed: string[];
  message: string;
}

/** What carrying out an action needs besides the cache: the user's day, and (for a contacted without addresses) the sender's name for the filled subject. */
export interface ActionContext {
  today: string;
  senderName: string;
  /** The write time (default: read once the write lock is held). */
  now?: string;
}

function check(action: TriageAction, today: string): void {
  if (action.do === 'snooze' && action.until !== null && action.until <= today)
    throw new WorkbenchError('invalid-input', 'Snooze until a day after today.', { field: 'until' });
  if ((action.do === 'contacted' || action.do === 'followed-up') && action.on !== undefined && action.on > today)
    throw new WorkbenchError('invalid-input', 'That day is still to come: say the day it was sent.', { field: 'on' });
}

/**
 * The addresses a contact names, as the opportunity holds them (any case
 * given), per opportunity: an address it does not have is refused, naming its
 * addresses (an opportunity among several keeps those of the named it has, and
 * is refused only when it has none of them).
 */
function namedAddresses(cache: Cache, brandId: string, ids: readonly string[], named: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const contacts = contactsOf(cache.readable, brandId, ids);
  const asked = [...new Set(named.map(addressIdentity))];
  const unknown = new Set(asked);
  for (const id of ids) {
    const valid = new Map((contacts.get(id) ?? []).filter((c) => c.valid).map((c) => [c.identity, c.email]));
    const used = asked.flatMap((a) => (valid.has(a) ? [valid.get(a)!] : []));
    for (const a of asked) if (valid.has(a)) unknown.delete(a);
    if (used.length === 0 || (ids.length === 1 && used.length < asked.length)) {
      const which = named.filter((a) => !valid.has(addressIdentity(a)));
      throw new WorkbenchError(
        'invalid-input',
        `Nothing was changed: ${which.join(', ')} ${which.length === 1 ? 'is not an address' : 'are not addresses'} of ${ids.length === 1 ? 'this opportunity' : `opportunity ${id}`}. Its addresses: ${[...valid.values()].join(', ') || 'none'}.`,
        { field: 'addresses' },
      );
    }
    out.set(id, used);
  }
  if (unknown.size) {
    throw new WorkbenchError('invalid-input', `Nothing was changed: ${[...unknown].join(', ')} is not an address of any of these opportunities.`, {
      field: 'addresses',
    });
  }
  return out;
}

/**
 * Carry out an action on these opportunities, all or nothing: refused, naming
 * them, when any is not in the cache. Marked contacted names the addresses
 * written to (as the opportunity holds them) or, without them, keeps those
 * recorded before (marking again does not replace them), else records the
 * ones the pitch pre-selects (shared/mail-links.ts defaultRecipients: its
 * personal addresses; catch-alls only when that is all; never one on the
 * do-not-contact list; none left: written to nobody) and its filled subject
 * (a subject recorded before is kept the same way).
 * A contact date set another way (the stage set to Contacted by hand) records
 * the pre-selected addresses too, when none are recorded: follow-ups and
 * "already pitched" read who was written to.
 */
export function applyAction(cache: Cache, brandId: string, ids: readonly string[], action: TriageAction, ctx: ActionContext): Applied {
  check(action, ctx.today);
  const unique = [...new Set(ids)];
  const missing = missingIds(cache.readable, brandId, unique);
  if (missing.length === 1 && unique.length === 1) throw new WorkbenchError('not-found', NOT_IN_CACHE);
  if (missing.length) throw new WorkbenchError('not-found', missingMessage(missing, unique.length), { field: 'ids' });
  const contacted = action.do === 'contacted' ? action : null;
  const named = contacted?.addresses?.length ? namedAddresses(cache, brandId, unique, contacted.addresses) : null;
  // What was sent, when not said nor recorded before (marking again keeps what was recorded): worked out per
  // opportunity before the write (reads only).
  const before = contacted && (named === null || contacted.subject === undefined) ? readTriageOf(cache.readable, brandId, unique) : null;
  const sent = new Map(
    [...(before ?? [])]
      .filter(([, t]) => (named === null && t.contacted_addresses === null) || (contacted?.subject === undefined && t.contacted_subject === null))
      .map(([id]) => [id, sentDefaults(cache, ctx.senderName, brandId, id)]),
  );
  return applyEach(
    cache,
    brandId,
    unique,
    (id, now) => {
      if (!contacted) return action;
      // (Changed by another process since it was read: the pre-selected addresses, and no subject.)
      const s = sent.get(id);
      const addresses = named?.get(id) ?? now.contacted_addresses ?? s?.addresses ?? preselectedAddresses(cache.writable.connection, brandId, id);
      const subject = contacted.subject !== undefined ? contacted.subject : (now.contacted_subject ?? s?.subject ?? null);
      return { ...contacted, addresses, subject };
    },
    { kind: action.do, label: actionLabel(action), pitched: touchesPitched(action) },
    ctx,
  );
}

/**
 * One logged action over these opportunities (all in the cache), each with
 * the action `actionOf` gives it from its triage now (read in the write
 * transaction): the stage rules applied (triagePatchOf), what changed logged
 * field by field for an undo, and the words for it. `also`: a write that
 * belongs to the same transaction (an export confirmed sent).
 */
export function applyEach(
  cache: Cache,
  brandId: string,
  ids: readonly string[],
  actionOf: (id: string, current: TriageFields) => TriageAction,
  meta: { kind: TriageActionKind; label: string; pitched: boolean; also?: () => void },
  ctx: ActionContext,
): Applied {
  const db = cache.writable;
  // A triage write leaves a search's matches as they were, and only a contact date can change which addresses were pitched.
  return db.derived.triageWrite(
    () =>
      db.transaction(() => {
        const at = ctx.now ?? new Date().toISOString();
        const current = readTriageOf(db, brandId, ids);
        const changes = new Map<string, FieldChange[]>();
        for (const id of ids) {
          const now = current.get(id)!;
          let patch = triagePatchOf(actionOf(id, now), now, ctx.today);
          // A contact date set without saying who was written to, and none recorded yet: the pre-selected addresses.
          if (patch.contacted_at && patch.contacted_addresses === undefined && now.contacted_addresses === null)
            patch = { ...patch, contacted_addresses: preselectedAddresses(db.connection, brandId, id) };
          const c = writeTriage(db, brandId, id, patch, at);
          if (c.length) changes.set(id, c);
        }
        meta.also?.();
        const actionId = changes.size ? logAction(db, { at, brandId, kind: meta.kind, label: meta.label, changes }) : null;
        const message =
          ids.length === 1
            ? changes.size
              ? `${meta.label}.`
              : `Nothing to change: ${meta.label.toLowerCase()} already.`
            : `${meta.label}: ${plural(changes.size)}.`;
        return { actionId, changed: [...changes.keys()], message };
      }),
    { pitched: meta.pitched },
  );
}

/** The actions that may set or clear a contacted date (and so change which addresses were pitched). */
function touchesPitched(a: TriageAction): boolean {
  return a.do === 'contacted' || a.do === 'not-contacted' || (a.do === 'stage' && a.stage === 'Contacted');
}

/**
 * Take back an action: the latest not yet undone (of a brand when given), or
 * the one named. Each field goes back to what the action found, unless it was
 * changed since (then it is left, and said); the history gets an "Undone" line.
 */
export function undoAction(cache: Cache, which: { actionId?: number; brandId?: string }, now?: string): Applied & { brandId: string } {
  const db = cache.writable;
  return db.derived.triageWrite(() => undoIn(db, which, now), { pitched: true });
}

function undoIn(db: Cache['writable'], which: { actionId?: number; brandId?: string }, now?: string): Applied & { brandId: string } {
  return db.transaction(() => {
    const action = which.actionId !== undefined ? actionById(db, which.actionId) : latestAction(db, { brandId: which.brandId, open: true });
    if (!action) throw new WorkbenchError('not-found', which.actionId !== undefined ? 'That action is no longer in the undo list.' : 'Nothing to undo.');
    if (action.undone_at !== null) throw new WorkbenchError('invalid-input', `${action.label} was undone already.`);
    const at = now ?? new Date().toISOString();
    const restored: string[] = [];
    let kept = 0;
    for (const [id, changes] of actionChanges(db, action.id)) {
      const done = restoreTriage(db, action.brand_id, id, changes, at);
      if (done.length) {
        restored.push(id);
        addHistory(db, action.brand_id, id, 'undo', at, action.label);
      }
      if (done.length < changes.length) kept++;
    }
    markUndone(db, action.id, at);
    const keptWords = kept ? `; ${plural(kept)} changed since ${kept === 1 ? 'keeps its' : 'keep their'} later change` : '';
    const message = `Undone: ${action.label}${action.opportunities > 1 ? ` (${plural(restored.length)})` : ''}${keptWords}.`;
    return { actionId: action.id, changed: restored, message, brandId: action.brand_id };
  });
}

/** An event that may move the stage by itself (a draft saved): forward only, in the caller's transaction, not an action to undo. */
export function stageEvent(cache: Cache, brandId: string, id: string, event: PipelineEvent, now: string): void {
  const current = readTriage(cache.writable, brandId, id).stage ?? 'New';
  const next = stageAfter(event, current as Stage);
  if (next !== current) writeTriage(cache.writable, brandId, id, { stage: next === 'New' ? null : next }, now);
}

/**
 * After the one follow-up, no reply for `noReplyAfterDays`: the opportunity
 * moves to Not a fit (No reply). Run at launch and once a day while the app
 * stays open; returns how many moved.
 */
export function applyNoReply(cache: Cache, settings: { followUpAfterDays: number; noReplyAfterDays: number }, today: string): number {
  const expired = followedUp(cache.readable).filter((t) => noReplyExpired({ stage: 'Followed up', followed_up_at: t.followed_up_at }, today, settings));
  if (expired.length === 0) return 0;
  cache.writable.transaction(() => {
    const at = new Date().toISOString();
    for (const t of expired) writeTriage(cache.writable, t.brand_id, t.opportunity_id, { stage: 'Not a fit', stage_reason: 'No reply' }, at);
  });
  return expired.length;
}

/** Follow-ups due, per brand and in all: what the Due view lists. Reads only. */
export function followUpsDue(cache: Cache): { byBrand: Record<string, number>; total: number } {
  const byBrand = dueCounts(cache.readable, cache.days());
  return { byBrand, total: Object.values(byBrand).reduce((a, b) => a + b, 0) };
}

/** The answer the window repaints from: the changed rows, the detail (one opportunity), which rows leave its list, its counts, the follow-ups due. */
export function answer(
  cache: Cache,
  brandId: string,
  applied: Applied,
  asked: readonly string[],
  list: { filter?: Omit<ListFilter, 'brandId'>; counts?: boolean },
): TriageResult {
  const ready = prepareBrand(cache.writable, brandId);
  const q = list.filter ? prepareList(cache.writable, { ...list.filter, brandId }, cache.days()) : null;
  const shown = asked.length <= ITEMS_IN_ANSWER ? asked : [];
  const items = readItems(cache.readable, ready, shown);
  const one = asked.length === 1 ? asked[0]! : null;
  return {
    actionId: applied.actionId,
    message: applied.message,
    updated: applied.changed.length,
    items,
    detail: one ? readOpportunity(cache.readable, ready, one) : null,
    leaving: q ? leavingList(cache.readable, q, shown) : [],
    counts: q && list.counts ? chipCountsAndTotal(cache.readable, q).counts : null,
    due: followUpsDue(cache),
  };
}

/** The contract's triage slice (shared/contract/triage.ts). */
export function triageHandlers(
  d: DomainDeps,
): Pick<ContractHandlers, 'triage:apply' | 'triage:undo' | 'pipeline:due' | 'history:get' | 'dnc:list' | 'dnc:add' | 'dnc:remove'> {
  return {
    'triage:apply': ({ brandId, ids, action, filter, counts }) => {
      const cache = d.cache();
      const applied = applyAction(cache, brandId, ids, action, { today: d.today(), senderName: d.settings().senderName });
      if (applied.actionId !== null) d.changed();
      return answer(cache, brandId, applied, [...new Set(ids)], { filter, counts });
    },
    'triage:undo': ({ actionId, brandId, filter, counts }) => {
      const cache = d.cache();
      const undone = undoAction(cache, { actionId, brandId });
      if (undone.changed.length) d.changed();
      return answer(cache, undone.brandId, undone, undone.changed, { filter: brandId && undone.brandId === brandId ? filter : undefined, counts });
    },
    'pipeline:due': () => followUpsDue(d.cache()),
    'history:get': ({ brandId, id }) => {
      const db = d.cache().readable;
      return { entries: historyOf(db, brandId, id), sameOutlet: historyAtOutlet(db, brandId, id) };
    },
    'dnc:list': () => d.cache().doNotContact.list(),
    'dnc:add': ({ value, note }) => {
      const entry = d.cache().doNotContact.add(value, note);
      d.changed();
      return entry;
    },
    'dnc:remove': ({ value }) => {
      const removed = d.cache().doNotContact.remove(value);
      d.changed();
      return { removed };
    },
  };
}
