// The outreach pipeline as a PR person runs it: local stages, the one table
// that maps them to the service's own status values, snooze dates, and the
// follow-up rules (one follow-up, never five). Pure data and functions; dates
// are calendar days 'YYYY-MM-DD' on the user's calendar.
import type { Status } from './domain';
import { addDays, dayNumber } from './rules';

export const STAGES = ['New', 'Drafted', 'Contacted', 'Followed up', 'Replied', 'Won', 'Not a fit'] as const;
export type Stage = (typeof STAGES)[number];

/** Why an opportunity is not a fit: a short list, or the user's own words. */
export const NOT_A_FIT_REASONS = ['Not relevant', 'No contact', 'Paywalled or closed', 'Competitor owns it', 'No reply', 'Other'] as const;

/**
 * Each local stage and the service's status it corresponds to (the one
 * mapping between them): setting a stage sets the local status to this, and
 * the service's own status stays visible beside it.
 */
export const STAGE_TO_STATUS: Record<Stage, Status> = {
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

export const PIPELINE_DEFAULTS: PipelineSettings = { followUpAfterDays: 3, noReplyAfterDays: 7 };

const daysBetween = (from: string, to: string): number | null => {
  const a = dayNumber(from);
  const b = dayNumber(to);
  return a === null || b === null ? null : b - a;
};

/** Contacted at least N days ago, not followed up yet: the one follow-up is due (never again once it is done). */
export function followUpDue(t: { stage: Stage | null; contacted_at: string | null; followed_up_at?: string | null }, today: string, s: PipelineSettings = PIPELINE_DEFAULTS): boolean {
  if (t.stage !== 'Contacted' || !t.contacted_at || t.followed_up_at) return false;
  const d = daysBetween(t.contacted_at, today);
  return d !== null && d >= s.followUpAfterDays;
}

/** Followed up M days ago with no reply: it moves to Not a fit (No reply). */
export function noReplyExpired(t: { stage: Stage | null; followed_up_at: string | null }, today: string, s: PipelineSettings = PIPELINE_DEFAULTS): boolean {
  if (t.stage !== 'Followed up' || !t.followed_up_at) return false;
  const d = daysBetween(t.followed_up_at, today);
  return d !== null && d >= s.noReplyAfterDays;
}

/** The snooze choices from today: tomorrow, next Monday (a week's start), and in a month (30 days). */
export function snoozeDates(today: string): { tomorrow: string; nextWeek: string; inAMonth: string } {
  const n = dayNumber(today);
  if (n === null) throw new RangeError(`Not a calendar date: ${today}`);
  // Day 0 (1970-01-01) was a Thursday: 0 = Monday … 6 = Sunday.
  const weekday = (n + 3) % 7;
  return { tomorrow: addDays(today, 1), nextWeek: addDays(today, 7 - weekday), inAMonth: addDays(today, 30) };
}

/** Still snoozed today? */
export const isSnoozed = (snoozedUntil: string | null, today: string): boolean => snoozedUntil !== null && snoozedUntil > today;

/** The snooze date has come: it is back in the list, with a marker until the user acts on it. */
export const backFromSnooze = (snoozedUntil: string | null, today: string): boolean => snoozedUntil !== null && snoozedUntil <= today;

export type PipelineEvent = 'draft-saved' | 'mailed' | 'followed-up';

/**
 * Where an action moves the stage: saving a draft moves New to Drafted only;
 * mailing moves it to Contacted, following up to Followed up. An opportunity
 * already Replied, Won or Not a fit never moves back by itself (only the
 * user's explicit stage change moves it).
 */
export function stageAfter(event: PipelineEvent, current: Stage): Stage {
  if (current === 'Replied' || current === 'Won' || current === 'Not a fit') return current;
  if (event === 'draft-saved') return current === 'New' ? 'Drafted' : current;
  if (event === 'mailed') return current === 'Followed up' ? current : 'Contacted';
  return 'Followed up';
}
