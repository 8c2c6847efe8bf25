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
 * Each local stage and the service's status it corresponds to (the one
 * mapping between them): setting a stage sets the local status to this, and
 * the service's own status stays visible beside it.
 */
export const STAGE_TO_STATUS: Readonly<Record<Stage, Status>> = {
  New: 'New',
  Drafted: 'In Progress',
  Contacted: 'In Progress',
  'Followed up': 'In Progress',
  Replied: 'In Progress',
  Won: 'Done',
  'Not a fit': 'Archived',
};

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
