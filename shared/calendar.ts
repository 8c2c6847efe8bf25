// Calendar days written YYYY-MM-DD: checking one, counting days between them,
// and adding days, in UTC so a day is a day wherever the laptop is. No zod:
// the window uses these too, and its bundle stays small (rules.ts's schemas
// build on them).

/** A date written YYYY-MM-DD, nothing before or after it. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Days since 1970-01-01 for a valid calendar date, or null. */
export function dayNumber(date: string): number | null {
  if (!DATE_PATTERN.test(date)) return null;
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  if (m < 1 || m > 12 || d < 1) return null;
  const t = Date.UTC(y, m - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
  return Math.round(t / 86_400_000);
}

export function dateFromDayNumber(n: number): string {
  return new Date(n * 86_400_000).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const n = dayNumber(date);
  if (n === null) throw new RangeError(`Not a calendar date: ${date}`);
  return dateFromDayNumber(n + days);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The day a moment falls on by this computer's calendar (its time zone), YYYY-MM-DD: the app's "today" is this of now. */
export const localDay = (d: Date): string => `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;

/**
 * The day on this computer's calendar of a date or a timestamp: a date
 * (YYYY-MM-DD) is that day; a timestamp (2026-11-30T07:30:00Z, stamped in
 * UTC) is the local day of its moment, so a Won marked at 23:30 on the 30th
 * counts on the 30th wherever the laptop is. null when it is neither.
 */
export function localDayOf(s: string | null | undefined): string | null {
  if (!s) return null;
  if (s.length > 10) {
    const t = new Date(s);
    if (!Number.isNaN(t.getTime())) return localDay(t);
  }
  const d = s.slice(0, 10);
  return dayNumber(d) === null ? null : d;
}
