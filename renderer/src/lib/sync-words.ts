// A sync in words: its progress, what is known and nothing more (pages and rows
// so far, the rate, and the time left only when the size is known from the
// brand's last complete sync; never a guess).
import type { SyncEvent, SyncSummary } from '../../../shared/model';
import { count } from './format';

type Progress = Extract<SyncEvent, { type: 'progress' }>;

export function timeLeft(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  const m = Math.round(seconds / 60);
  if (m < 60) return `about ${m} min left`;
  const h = Math.floor(m / 60);
  return `about ${h} h ${m % 60} min left`;
}

export function syncWords(p: Progress): string {
  const parts = [count(p.pages, 'page'), p.total ? `${p.items.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} rows` : count(p.items, 'row')];
  if (p.rate) parts.push(`${p.rate >= 10 ? Math.round(p.rate) : Math.round(p.rate * 10) / 10} rows/s`);
  if (p.total && p.secondsLeft !== null && p.secondsLeft !== undefined) parts.push(timeLeft(p.secondsLeft));
  return parts.join(', ');
}

/** A finished sync in one toast: stopped and why, cancelled, skipped, its problems, or what it brought. */
export function syncSummaryWords(summary: SyncSummary): { text: string; kind: 'info' | 'error' } {
  if (summary.error) return { text: `Sync stopped: ${summary.error.message}`, kind: 'error' };
  if (summary.cancelled) return { text: 'Sync cancelled.', kind: 'info' };
  const added = summary.brands.reduce((a, b) => a + b.added, 0);
  const changed = summary.brands.reduce((a, b) => a + b.changed, 0);
  const failures = summary.brands.flatMap((b) => b.failures);
  const skipped = summary.brands.filter((b) => b.skipped);
  if (skipped.length && skipped.length === summary.brands.length) return { text: skipped[0]!.skipped!, kind: 'info' };
  if (failures.length) return { text: `Synced with ${failures.length} problem${failures.length === 1 ? '' : 's'}: ${failures[0]!.message}`, kind: 'error' };
  // What the sync found at the outlets pitched (evidence of a win), and the Wons it marked when Settings allow it.
  const cited = summary.brands.reduce((a, b) => a + (b.cited ?? 0), 0);
  const won = summary.brands.reduce((a, b) => a + (b.markedWon ?? 0), 0);
  const news = cited
    ? ` ${cited} pitched ${cited === 1 ? 'opportunity is' : 'opportunities are'} newly cited${won ? ` (${won} marked Won)` : ''}: see Results.`
    : '';
  return { text: `Synced: ${added} new, ${changed} changed.${news}`, kind: 'info' };
}
