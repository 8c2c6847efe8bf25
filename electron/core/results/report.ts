// The Results of a brand over a period, from what the cache holds: the
// opportunities pitched in the period and what became of them, week by week
// (replied, won, cited by now); what was won or cited in the period, with its
// evidence; the time from pitch to first citation; the outlets by type; the
// scores with the day's events. `buildReport` is pure (tests feed it rows);
// `resultsOf` reads the cache for it.
import type { Evidence } from '../../../shared/evidence';
import { dayOf } from '../../../shared/evidence';
import { dailySeries, type ScoreLike } from '../../../shared/insights';
import {
  TIMING_BUCKETS,
  weekOf,
  weeksBetween,
  type DayEvents,
  type FunnelCounts,
  type OutletTypeRow,
  type Period,
  type ResultsReport,
  type Timing,
  type WinRow,
} from '../../../shared/results';
import type { Cache } from '../store/cache';
import { everAtStage, siteTypes, type OutreachRow } from '../store/outreach-results';
import { matchBrand, withDetails } from './match';

export interface ReportInput {
  brandId: string;
  brandName: string;
  period: Period;
  today: string;
  rows: readonly OutreachRow[];
  evidence: ReadonlyMap<string, Evidence>;
  /** Those ever at Replied (an undone Replied left out). */
  replied: ReadonlySet<string>;
  /** The publication's type by the opportunity's rowid. */
  siteTypes: ReadonlyMap<number, string>;
  scores: readonly ScoreLike[];
  citationsSyncedAt: string | null;
}

const within = (day: string | null, p: Period): day is string => day !== null && day >= p.from && day <= p.to;
const zero = (): FunnelCounts => ({ pitched: 0, replied: 0, won: 0, cited: 0 });

function timingOf(days: number[]): Timing {
  const sorted = [...days].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n === 0 ? null : n % 2 ? sorted[(n - 1) / 2]! : Math.round((sorted[n / 2 - 1]! + sorted[n / 2]!) / 2);
  let lower = -1;
  const buckets = TIMING_BUCKETS.map((b) => {
    const count = sorted.filter((d) => d > lower && d <= b.max).length;
    lower = b.max;
    return { label: b.label, count };
  });
  return { count: n, median_days: median, fastest_days: n ? sorted[0]! : null, slowest_days: n ? sorted[n - 1]! : null, buckets };
}

export function buildReport(i: ReportInput): ResultsReport {
  const { period } = i;
  const cohort = i.rows.filter((r) => within(r.pitched_on, period));
  const typeOf = (r: OutreachRow) => (r.rowid !== null ? i.siteTypes.get(r.rowid) : undefined) ?? 'Unknown';
  const count = (into: FunnelCounts, r: OutreachRow) => {
    into.pitched++;
    // A funnel: a Won is replied or beyond, whether or not it was ever marked Replied.
    if (i.replied.has(r.id) || r.stage === 'Won') into.replied++;
    if (r.stage === 'Won') into.won++;
    if (i.evidence.has(r.id)) into.cited++;
  };

  const totals = zero();
  const weeks = new Map(weeksBetween(period.from, period.to).map((w) => [w, zero()]));
  /** A week is shown by its first day in the period: its Monday, or the period's first day for a week it starts in. */
  const shownAs = (monday: string) => (monday < period.from ? period.from : monday);
  const types = new Map<string, FunnelCounts>();
  for (const r of cohort) {
    count(totals, r);
    count(weeks.get(weekOf(r.pitched_on!))!, r);
    const t = typeOf(r);
    if (!types.has(t)) types.set(t, zero());
    count(types.get(t)!, r);
  }

  const wonOn = (r: OutreachRow) => (r.stage === 'Won' ? dayOf(r.stage_changed_at) : null);
  const wins: WinRow[] = i.rows
    .filter((r) => within(i.evidence.get(r.id)?.first_since ?? null, period) || within(wonOn(r), period))
    .map((r) => ({
      id: r.id,
      title: r.title ?? `Opportunity ${r.id} (no longer in the cache)`,
      domain: r.domain ?? '',
      url: r.url,
      outlet_type: typeOf(r),
      stage: r.stage,
      pitched_on: r.pitched_on,
      won_on: wonOn(r),
      evidence: i.evidence.get(r.id) ?? null,
    }))
    .sort((a, b) => {
      const when = (w: WinRow) =>
        [w.won_on, w.evidence?.first_since]
          .filter((d): d is string => !!d && within(d, period))
          .sort()
          .at(-1) ?? '';
      return when(b).localeCompare(when(a)) || a.title.localeCompare(b.title);
    });

  // The chart's marks: pitches of the period, first citations and Wons in it.
  const days = new Map<string, DayEvents>();
  const on = (date: string) => {
    let d = days.get(date);
    if (!d) days.set(date, (d = { date, pitched: [], cited: [], won: [] }));
    return d;
  };
  for (const r of cohort) on(r.pitched_on!).pitched.push({ id: r.id, title: r.title ?? r.id, domain: r.domain ?? '' });
  for (const w of wins) {
    if (w.evidence && within(w.evidence.first_since, period))
      on(w.evidence.first_since).cited.push({ id: w.id, title: w.title, url: w.evidence.citation.url, strength: w.evidence.strength });
    if (w.won_on && within(w.won_on, period)) on(w.won_on).won.push({ id: w.id, title: w.title });
  }

  const outlets: OutletTypeRow[] = [...types.entries()]
    .map(([type, c]) => ({ type, ...c }))
    .sort((a, b) => b.pitched - a.pitched || a.type.localeCompare(b.type));
  const end = period.to < i.today ? period.to : i.today;
  return {
    brandId: i.brandId,
    brandName: i.brandName,
    period,
    made_on: i.today,
    totals,
    funnel: [...weeks.entries()].map(([monday, c]) => ({ week: shownAs(monday), ...c })),
    wins,
    timing: timingOf(wins.filter((w) => w.evidence && within(w.evidence.first_since, period)).map((w) => w.evidence!.days)),
    outlets,
    scores: end >= period.from ? dailySeries(i.scores, period.from, end) : [],
    events: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
    citations_synced_at: i.citationsSyncedAt,
  };
}

/** The brand's Results over the period, read from the cache (reads only). */
export function resultsOf(cache: Cache, brandId: string, period: Period, today: string): ResultsReport {
  const db = cache.readable;
  const { rows, evidence: matched } = matchBrand(db, brandId);
  // The evidence shown (cited in the period) whole: its prompts and last-seen day.
  const shownEvidence = [...matched.values()].filter((e) => within(e.first_since, period));
  const evidence = new Map(matched);
  for (const e of withDetails(db, brandId, shownEvidence)) evidence.set(e.opportunity_id, e);
  const cohortIds = rows.filter((r) => within(r.pitched_on, period)).map((r) => r.id);
  const shown = rows.filter(
    (r) =>
      within(r.pitched_on, period) ||
      within(evidence.get(r.id)?.first_since ?? null, period) ||
      within(r.stage === 'Won' ? dayOf(r.stage_changed_at) : null, period),
  );
  return buildReport({
    brandId,
    brandName: cache.brands.get(brandId)?.name ?? brandId,
    period,
    today,
    rows,
    evidence,
    replied: everAtStage(db, brandId, cohortIds, 'Replied', 'skip'),
    siteTypes: siteTypes(
      db,
      shown.map((r) => r.rowid).filter((n): n is number => n !== null),
    ),
    scores: cache.scores.series(brandId, [], { start: period.from, end: period.to }),
    citationsSyncedAt: cache.citations.snapshot(brandId, 'citations')?.fetched_at ?? null,
  });
}
