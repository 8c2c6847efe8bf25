// Small formatting helpers for the UI.
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return 'unknown';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  return `${d} day${d === 1 ? '' : 's'} ago`;
}

export const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function day(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '';
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A moment in the user's own locale and time zone, e.g. "23 Nov 2026, 10:42". */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  // A bare day (YYYY-MM-DD) is a date without a time: shown as that day wherever the user is.
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return new Date(`${iso}T12:00:00`).toLocaleDateString(undefined, { dateStyle: 'medium' });
  return t.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A file's size in the units people read: "812 bytes", "14 KB", "2.3 MB". */
export function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Today on the user's calendar, YYYY-MM-DD (the core's day, too, outside tests that move its clock). */
export function localDay(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** A bare day (YYYY-MM-DD, or the day of a YYYY-MM-DDThh:mm… time) with its weekday: "Mon, 12 Jan 2026". */
export function dayName(date: string | null | undefined): string {
  if (!date || !/^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?$/.test(date)) return date ?? '';
  return new Date(`${date.slice(0, 10)}T12:00:00`).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
}
