// A sync's progress in words (the top bar while a sync runs): pages and rows
// so far, the rate, and the time left only when the size is known from the
// brand's last complete sync; never a guessed total or a guessed time.
import { describe, expect, it } from 'vitest';
import { syncWords, timeLeft } from '../../../renderer/src/lib/sync-words';

const progress = (p: { pages: number; items: number; rate?: number | null; total?: number | null; secondsLeft?: number | null }) =>
  ({ type: 'progress', brandId: 'b1', phase: 'opportunities', ...p }) as const;

describe('syncWords', () => {
  it('a first sync (size unknown): pages and rows so far and the rate, no total and no time left', () => {
    expect(syncWords(progress({ pages: 1, items: 500, rate: 812, total: null, secondsLeft: null }))).toBe('1 page, 500 rows, 812 rows/s');
    expect(syncWords(progress({ pages: 3, items: 1500, rate: 95.4, total: null, secondsLeft: null }))).toBe('3 pages, 1,500 rows, 95 rows/s');
  });

  it('before the first page has come: no rate yet', () => {
    expect(syncWords(progress({ pages: 0, items: 0, rate: null, total: null, secondsLeft: null }))).toBe('0 pages, 0 rows');
    expect(syncWords(progress({ pages: 0, items: 0 }))).toBe('0 pages, 0 rows');
  });

  it('a slow rate keeps one decimal', () => {
    expect(syncWords(progress({ pages: 1, items: 50, rate: 4.26, total: null }))).toBe('1 page, 50 rows, 4.3 rows/s');
  });

  it('the size known (the last complete sync): "x of y rows" and the time left', () => {
    expect(syncWords(progress({ pages: 1, items: 500, rate: 100, total: 12_345, secondsLeft: 118 }))).toBe(
      '1 page, 500 of 12,345 rows, 100 rows/s, about 2 min left',
    );
    expect(syncWords(progress({ pages: 2, items: 1000, rate: 250, total: 1200, secondsLeft: 0.8 }))).toBe(
      '2 pages, 1,000 of 1,200 rows, 250 rows/s, about 1 s left',
    );
  });

  it('the size known but no rate yet: the total, and no time left (nothing to reckon it from)', () => {
    expect(syncWords(progress({ pages: 0, items: 0, rate: null, total: 1200, secondsLeft: null }))).toBe('0 pages, 0 of 1,200 rows');
  });

  it('a time left without a known size is never shown', () => {
    expect(syncWords(progress({ pages: 1, items: 500, rate: 100, total: null, secondsLeft: 30 }))).toBe('1 page, 500 rows, 100 rows/s');
  });
});

describe('timeLeft', () => {
  it('seconds under a minute (at least 1), minutes under an hour, then hours and minutes', () => {
    expect(timeLeft(0)).toBe('about 1 s left');
    expect(timeLeft(42.4)).toBe('about 42 s left');
    expect(timeLeft(59)).toBe('about 59 s left');
    expect(timeLeft(60)).toBe('about 1 min left');
    expect(timeLeft(89)).toBe('about 1 min left');
    expect(timeLeft(90)).toBe('about 2 min left');
    expect(timeLeft(59 * 60)).toBe('about 59 min left');
    expect(timeLeft(3600)).toBe('about 1 h 0 min left');
    expect(timeLeft(2 * 3600 + 25 * 60)).toBe('about 2 h 25 min left');
  });
});
