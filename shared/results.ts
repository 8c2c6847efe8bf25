// What the outreach won, as the Results view, its report and the CLI show it:
// the periods a PR person reports on, and the report's shape (the funnel by
// week, the wins with their evidence, the time from pitch to citation, the
// outlets by type, the scores with the day's events). Plain data and pure
// functions; the core builds the report (electron/core/results/).
import { addDays, dateFromDayNumber, dayNumber } from './calendar';
import type { Evidence } from './evidence';
import type { DayPoint } from './insights';
import type { Stage } from './pipeline';

export const PERIOD_PRESETS = ['this-month', 'last-month', 'quarter', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export interface Period {
  from: string;
  to: string;
  /** In words: "November 2026", "Q4 2026", "2026-10-03 to 2026-11-02". */
  label: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The days a preset covers on `today` (YYYY-MM-DD): this month to today, last month whole, this quarter to today, or the custom days given. */
export function periodOf(preset: PeriodPreset, today: string, custom?: { from: string; to: string }): Period {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  if (preset === 'this-month') return { from: `${y}-${pad(m)}-01`, to: today, label: `${MONTHS[m - 1]} ${y}` };
  if (preset === 'last-month') {
    const py = m === 1 ? y - 1 : y;
    const pm = m === 1 ? 12 : m - 1;
    return { from: `${py}-${pad(pm)}-01`, to: `${py}-${pad(pm)}-${pad(lastDay(py, pm))}`, label: `${MONTHS[pm - 1]} ${py}` };
  }
  if (preset === 'quarter') {
    const q = Math.floor((m - 1) / 3);
    return { from: `${y}-${pad(q * 3 + 1)}-01`, to: today, label: `Q${q + 1} ${y}` };
  }
  const from = custom?.from ?? today;
  const to = custom?.to ?? today;
  return from <= to ? { from, to, label: `${from} to ${to}` } : { from: to, to: from, label: `${to} to ${from}` };
}

/** The Monday of the week a day falls in (weeks start on Monday). */
export function weekOf(day: string): string {
  const n = dayNumber(day);
  if (n === null) throw new RangeError(`Not a calendar date: ${day}`);
  // Day 0 (1970-01-01) was a Thursday: Monday is 3 days before it.
  return dateFromDayNumber(n - ((((n + 3) % 7) + 7) % 7));
}

/** Every week (its Monday) from the one holding `from` to the one holding `to`. */
export function weeksBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let w = weekOf(from); w <= to; w = addDays(w, 7)) out.push(w);
  return out;
}

export interface FunnelCounts {
  pitched: number;
  replied: number;
  won: number;
  cited: number;
}

/** The opportunities pitched in a week, and how many of them were replied to, won and cited (by now). */
export interface FunnelWeek extends FunnelCounts {
  /** The week's first day in the period: its Monday, or the period's first day (a period starting mid-week). */
  week: string;
}

/** Something the outreach won in the period: a citation found at a pitched outlet, or a Won marked. */
export interface WinRow {
  id: string;
  title: string;
  domain: string;
  url: string | null;
  /** The publication's type (news publication, niche blog, …), or 'Unknown'. */
  outlet_type: string;
  stage: Stage | null;
  pitched_on: string | null;
  /** The day the stage was set to Won, when it is Won. */
  won_on: string | null;
  evidence: Evidence | null;
}

export interface OutletTypeRow extends FunnelCounts {
  type: string;
}

/** From the pitch to the first citation, over the wins with evidence. */
export interface Timing {
  count: number;
  median_days: number | null;
  fastest_days: number | null;
  slowest_days: number | null;
  buckets: { label: string; count: number }[];
}

/** What happened on one day: pitches sent, citations found, Wons marked. */
export interface DayEvents {
  date: string;
  pitched: { id: string; title: string; domain: string }[];
  cited: { id: string; title: string; url: string; strength: Evidence['strength'] }[];
  won: { id: string; title: string }[];
}

export interface ResultsReport {
  brandId: string;
  brandName: string;
  period: Period;
  /** The day the report was made (the core's today). */
  made_on: string;
  /** The opportunities pitched in the period, and what became of them. */
  totals: FunnelCounts;
  funnel: FunnelWeek[];
  /** Won or cited in the period (whenever pitched), the latest first. */
  wins: WinRow[];
  timing: Timing;
  /** The opportunities pitched in the period by the publication's type. */
  outlets: OutletTypeRow[];
  /** Visibility and presence for each day of the period (a day without a report is a gap). */
  scores: DayPoint[];
  /** Days with something to mark on the chart. */
  events: DayEvents[];
  /** When citations were last synced (null: never). */
  citations_synced_at: string | null;
}

/** The buckets of the time from pitch to first citation. */
export const TIMING_BUCKETS: readonly { label: string; max: number }[] = [
  { label: 'within a week', max: 7 },
  { label: '8 to 14 days', max: 14 },
  { label: '15 to 30 days', max: 30 },
  { label: '31 to 60 days', max: 60 },
  { label: 'over 60 days', max: Number.POSITIVE_INFINITY },
];

/** What evidence says in a few words ("the page you pitched, now mentions Acme"). */
export function evidenceWords(e: Pick<Evidence, 'match' | 'strength'>, brand: string): string {
  const where = e.match === 'page' ? 'the page you pitched' : 'another page at the outlet';
  return e.strength === 'flip' ? `${where} started to mention ${brand} after the pitch` : `${where}, cited after the pitch, mentions ${brand}`;
}
