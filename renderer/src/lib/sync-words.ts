// A sync's progress in words: what is known and nothing more (pages and rows
// so far, the rate, and the time left only when the size is known from the
// brand's last complete sync; never a guess).
import type { SyncEvent } from '../../../shared/model';
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
