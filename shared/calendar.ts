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
