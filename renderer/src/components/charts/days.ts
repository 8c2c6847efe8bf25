// The score chart's days: a point per day of the period (its index from the
// period's first day), and the events of each day by date.
import { dayNumber } from '../../../../shared/calendar';
import type { DayPoint } from '../../../../shared/insights';
import type { DayEvents } from '../../../../shared/results';

export interface ChartDay extends DayPoint {
  /** Days from the period's first day. */
  i: number;
}

export const dayIndex = (from: string, date: string): number => (dayNumber(date) ?? 0) - (dayNumber(from) ?? 0);

export const chartDays = (from: string, points: readonly DayPoint[]): ChartDay[] => points.map((p) => ({ ...p, i: dayIndex(from, p.date) }));

/** A day's events in a sentence or three (the tooltip, and what a screen reader hears). */
export function describeDay(date: string, point: DayPoint | undefined, ev: DayEvents | undefined): string[] {
  const lines = [new Date(`${date}T12:00:00`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })];
  if (point && (point.visibility !== null || point.presence !== null)) lines.push(`Visibility ${point.visibility ?? '–'}, presence ${point.presence ?? '–'}`);
  else lines.push('No score that day');
  for (const p of ev?.pitched ?? []) lines.push(`Pitched: ${p.title} (${p.domain})`);
  for (const c of ev?.cited ?? []) lines.push(`Cited${c.strength === 'flip' ? ' (began to mention the brand)' : ''}: ${c.title}, ${c.url}`);
  for (const w of ev?.won ?? []) lines.push(`Won: ${w.title}`);
  return lines;
}
