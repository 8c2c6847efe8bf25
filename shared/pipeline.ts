// The outreach pipeline as a PR person runs it: local stages, the one table
// that maps them to the service's own status values, snooze dates, and the
// follow-up rules (one follow-up, never five). Pure data and functions; dates
// are calendar days 'YYYY-MM-DD' on the user's calendar.
import type { Status } from './domain';
import { addDays, dateFromDayNumber, dayNumber } from './calendar';

export const STAGES = ['New', 'Drafted', 'Contacted', 'Followed up', 'Replied', 'Won', 'Not a fit'] as const;
export type Stage = (typeof STAGES)[number];

/** Why an opportunity is not a fit: a short list, or the user's own words. */
export const NOT_A_FIT_REASONS = ['Not relevant', 'No contact', 'Paywalled or closed', 'Competitor owns it', 'No reply', 'Other'] as const;
export type NotAFitReason = (typeof NOT_A_FIT_REASONS)[number];

/**
 * Before the pipeline was the one local triage, the user set a local status
 * (New, In Progress, Done, Archived) beside the stage, and setting a stage
 * set the status this table gives. Kept only to carry an old status over onto
 * the stage (migration 8, and an older record file or backup):
 * see stageOfLegacyStatus.
 */
export const LEGACY_STATUS_OF_STAGE: Readonly<Record<Stage, Status>> = {
  New: 'New',
  Drafted: 'In Progress',
  Contacted: 'In Progress',
  'Followed up': 'In Progress',
  Replied: 'In Progress',
  Won: 'Done',
  'Not a fit': 'Archived',
};

/** The stage an old local status stands for (the first stage the table above gives it). */
export const STAGE_OF_LEGACY_STATUS: Readonly<Record<Status, Stage>> = { New: 'New', 'In Progress': 'Drafted', Done: 'Won', Archived: 'Not a fit' };

/** The reason an opportunity the user had archived carries as Not a fit. */
export const ARCHIVED_REASON = 'Archived';

/**
 * An old local status carried over onto the stage, losing nothing: the
 * stage stays where the user's last word put it. Where the status says what
 * the stage implies (LEGACY_STATUS_OF_STAGE), or the stage was set after the
 * status, the stage stays. Otherwise the status was the later word and its
 * stage applies: New -> New, In Progress -> Drafted, Done -> Won, Archived ->
 * Not a fit with the reason "Archived" (a reason already given is kept).
 * Times are ISO texts (null: unknown, the older).
 */
export function stageOfLegacyStatus(t: {
  status: Status | null;
  status_changed_at: string | null;
  stage: Stage | null;
  stage_changed_at: string | null;
  stage_reason: string | null;
}): { stage: Stage | null; stage_reason: string | null; changed: boolean } {
  const kept = { stage: t.stage, stage_reason: t.stage_reason, changed: false };
  if (t.status === null) return kept;
  const stage = t.stage ?? 'New';
  if (LEGACY_STATUS_OF_STAGE[stage] === t.status) return kept;
  if (t.stage_changed_at !== null && (t.status_changed_at === null || t.stage_changed_at >= t.status_changed_at)) return kept;
  const next = STAGE_OF_LEGACY_STATUS[t.status];
  return {
    stage: next === 'New' ? null : next,
    stage_reason: next === 'Not a fit' ? (t.stage === 'Not a fit' && t.stage_reason ? t.stage_reason : ARCHIVED_REASON) : null,
    changed: true,
  };
}

export interface PipelineSettings {
  /** A contacted opportunity with no reply is due for its follow-up after this many days. */
  followUpAfterDays: number;
  /** After the follow-up, no reply after this many days: Not a fit (No reply). */
  noReplyAfterDays: number;
}

export const PIPELINE_DEFAULTS: Readonly<PipelineSettings> = { followUpAfterDays: 3, noReplyAfterDays: 7 };

/** A calendar day's number, from 'YYYY-MM-DD' (or the date part of an ISO timestamp), or null. */
const dayOf = (date: string | null | undefined): number | null => (date ? dayNumber(date.slice(0, 10)) : null);

const daysBetween = (from: string | null | undefined, to: string): number | null => {
  const a = dayOf(from);
  const b = dayOf(to);
  return a === null || b === null ? null : b - a;
};

/**
 * The one follow-up is due: the stage is Contacted, contacted at least
 * `followUpAfterDays` days before today, and not followed up yet. Never due
 * again once followed up (the stage then is Followed up, and a recorded
 * `followed_up_at` counts even if the stage was set back to Contacted).
 */
export function followUpDue(
  t: { stage: Stage | null; contacted_at: string | null; followed_up_at?: string | null },
  today: string,
  s: PipelineSettings = PIPELINE_DEFAULTS,
): boolean {
  if (t.stage !== 'Contacted' || t.followed_up_at) return false;
  const d = daysBetween(t.contacted_at, today);
  return d !== null && d >= s.followUpAfterDays;
}

/** Followed up `noReplyAfterDays` days ago or more and no reply: it moves to Not a fit, reason 'No reply'. */
export function noReplyExpired(t: { stage: Stage | null; followed_up_at: string | null }, today: string, s: PipelineSettings = PIPELINE_DEFAULTS): boolean {
  if (t.stage !== 'Followed up') return false;
  const d = daysBetween(t.followed_up_at, today);
  return d !== null && d >= s.noReplyAfterDays;
}

/** The reason recorded when noReplyExpired moves an opportunity to Not a fit. */
export const NO_REPLY_REASON: NotAFitReason = 'No reply';

/** Monday 0 … Sunday 6 (day 0, 1970-01-01, was a Thursday). */
const weekday = (n: number) => (((n + 3) % 7) + 7) % 7;

/** The same day a month later, or that month's last day ("Jan 31" -> "Feb 28"). */
function nextMonth(today: string): string {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7)); // 1..12
  const d = Number(today.slice(8, 10));
  const ny = m === 12 ? y + 1 : y;
  const nm = m === 12 ? 1 : m + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return `${String(ny).padStart(4, '0')}-${String(nm).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The snooze choices from today: tomorrow, next week (the next Monday, a week on from a Monday), and in a month (the same day next month). */
export function snoozeDates(today: string): { tomorrow: string; nextWeek: string; inAMonth: string } {
  const n = dayNumber(today);
  if (n === null) throw new RangeError(`Not a calendar date: ${today}`);
  return { tomorrow: dateFromDayNumber(n + 1), nextWeek: dateFromDayNumber(n + 7 - weekday(n)), inAMonth: nextMonth(today) };
}

/** Still snoozed today: out of the default view until its date. */
export function isSnoozed(snoozedUntil: string | null | undefined, today: string): boolean {
  const until = dayOf(snoozedUntil);
  const now = dayOf(today);
  return until !== null && now !== null && until > now;
}

/** The snooze date has come: it is back in the list, with a marker until the user acts on it. */
export function backFromSnooze(snoozedUntil: string | null | undefined, today: string): boolean {
  const until = dayOf(snoozedUntil);
  const now = dayOf(today);
  return until !== null && now !== null && until <= now;
}

/** What happened to an opportunity that may move its stage by itself. */
export const PIPELINE_EVENTS = ['draft-saved', 'mailed', 'followed-up'] as const;
export type PipelineEvent = (typeof PIPELINE_EVENTS)[number];

/** Where each event takes an opportunity, and the stages it may leave from. */
const MOVES: Record<PipelineEvent, { to: Stage; from: readonly Stage[] }> = {
  'draft-saved': { to: 'Drafted', from: ['New'] },
  mailed: { to: 'Contacted', from: ['New', 'Drafted'] },
  'followed-up': { to: 'Followed up', from: ['New', 'Drafted', 'Contacted'] },
};

/**
 * The automatic moves, forward only: saving a draft moves New to Drafted;
 * mailing (marked contacted) moves to Contacted; following up to Followed up.
 * An opportunity already further on (mailed again after the follow-up, a
 * reply, Won, Not a fit) stays where it is: only the user's explicit stage
 * change moves it back.
 */
export function stageAfter(event: PipelineEvent, current: Stage | null): Stage {
  const now = current ?? 'New';
  const move = MOVES[event];
  return move.from.includes(now) ? move.to : now;
}

/** The day the one follow-up becomes due for an opportunity contacted on `contactedAt` (for the Due view's "due since"). */
export function followUpDate(contactedAt: string, s: PipelineSettings = PIPELINE_DEFAULTS): string {
  return addDays(contactedAt.slice(0, 10), s.followUpAfterDays);
}

// ---- what the user does: the intents, and the one place their rules live ------

/**
 * What the user does to an opportunity (or several), in their words. The
 * core's owner of the user's record (electron/core/app/triage.ts) carries
 * each out through `triagePatchOf`, for the window and the CLI alike.
 */
export type TriageAction =
  /** Any stage, set by hand (Not a fit with a reason; New clears the stage). */
  | { do: 'stage'; stage: Stage; reason?: string | null }
  /** Sent: contacted on a day (default today) with the addresses used and the subject sent. */
  | { do: 'contacted'; on?: string; addresses?: string[]; subject?: string | null }
  /** Not contacted after all: the date, addresses and subject go; a Contacted stage goes back to New. */
  | { do: 'not-contacted' }
  /** The one follow-up was sent (default today). */
  | { do: 'followed-up'; on?: string }
  | { do: 'replied' }
  | { do: 'won' }
  | { do: 'not-a-fit'; reason?: string | null }
  /** Out of the list until a day after today; null: back now (or the marker cleared). */
  | { do: 'snooze'; until: string | null }
  | { do: 'note'; text: string }
  | { do: 'star'; on: boolean };

export type TriageActionKind = TriageAction['do'];

/** The triage fields an action reads and writes (a subset of shared/triage-fields.ts's TriageFields). */
export interface StageFields {
  stage: Exclude<Stage, 'New'> | null;
  stage_reason: string | null;
  contacted_at: string | null;
  contacted_addresses: string[] | null;
  contacted_subject: string | null;
  snoozed_until: string | null;
  followed_up_at: string | null;
  note: string;
  starred: boolean;
}

/** What an action changes, field by field, given what the opportunity has now. */
export type ActionPatch = Partial<StageFields>;

const stored = (s: Stage): Exclude<Stage, 'New'> | null => (s === 'New' ? null : s);

/** A stage set by hand: New clears it; only Not a fit keeps a reason; Contacted without a date is contacted today, so its follow-up comes due. */
function stagePatch(stage: Stage, reason: string | null | undefined, current: StageFields, today: string): ActionPatch {
  return {
    stage: stored(stage),
    stage_reason: stage === 'Not a fit' ? reason?.trim() || null : null,
    ...(stage === 'Contacted' && current.contacted_at === null ? { contacted_at: today } : {}),
  };
}

/**
 * The stage rules, the one place they are written: what each action changes
 * on an opportunity that has `current`. `today` is the user's calendar day.
 * Marking contacted moves the stage forward (stageAfter) and ends a snooze;
 * the follow-up too; a stage set by hand goes exactly where asked.
 */
export function triagePatchOf(action: TriageAction, current: StageFields, today: string): ActionPatch {
  const stageNow = (current.stage ?? 'New') as Stage;
  switch (action.do) {
    case 'stage':
      return stagePatch(action.stage, action.reason, current, today);
    case 'replied':
      return stagePatch('Replied', null, current, today);
    case 'won':
      return stagePatch('Won', null, current, today);
    case 'not-a-fit':
      return stagePatch('Not a fit', action.reason, current, today);
    case 'contacted':
      return {
        contacted_at: action.on ?? today,
        // An empty list is a fact: written to nobody (every address was on the do-not-contact list).
        contacted_addresses: action.addresses ? [...action.addresses] : null,
        contacted_subject: action.subject ?? null,
        stage: stored(stageAfter('mailed', stageNow)),
        snoozed_until: null,
      };
    case 'not-contacted':
      return {
        contacted_at: null,
        contacted_addresses: null,
        contacted_subject: null,
        ...(stageNow === 'Contacted' ? { stage: null } : {}),
      };
    case 'followed-up':
      return { followed_up_at: action.on ?? today, stage: stored(stageAfter('followed-up', stageNow)) };
    case 'snooze':
      return { snoozed_until: action.until };
    case 'note':
      return { note: action.text };
    case 'star':
      return { starred: action.on };
  }
}

/** The action in a few words, for the toast, the undo button and the history's undo line. */
export function actionLabel(action: TriageAction): string {
  switch (action.do) {
    case 'stage':
      return action.stage === 'Not a fit' && action.reason ? `Not a fit (${action.reason})` : `Stage: ${action.stage}`;
    case 'replied':
      return 'Stage: Replied';
    case 'won':
      return 'Stage: Won';
    case 'not-a-fit':
      return action.reason ? `Not a fit (${action.reason})` : 'Not a fit';
    case 'contacted':
      return action.addresses?.length ? `Marked contacted: ${action.addresses.join(', ')}` : 'Marked contacted';
    case 'not-contacted':
      return 'Contacted date cleared';
    case 'followed-up':
      return 'Marked followed up';
    case 'snooze':
      return action.until ? `Snoozed until ${action.until}` : 'Back from snooze';
    case 'note':
      return 'Note edited';
    case 'star':
      return action.on ? 'Starred' : 'Star removed';
  }
}
