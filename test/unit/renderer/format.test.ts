// The window's date words: a day is read only when the whole text is a day or a
// time on that day; anything else is shown as it came, never as a wrong date.
import { describe, expect, it } from 'vitest';
import { dayName } from '../../../renderer/src/lib/format';

describe('dayName', () => {
  it('names the weekday of a day, or of the day of a time', () => {
    expect(dayName('2026-01-12')).toMatch(/Mon/);
    expect(dayName('2026-01-12T09:30:00Z')).toMatch(/Mon/);
    expect(dayName('2026-01-12T09:30:00.000+02:00')).toMatch(/Mon/);
  });
  it('shows anything else as it is: a date pattern is anchored at both ends', () => {
    for (const text of ['2026-01-12 and more', '2026-01-12junk', 'x2026-01-12', '2026-1-12', 'soon']) expect(dayName(text)).toBe(text);
    expect(dayName(null)).toBe('');
    expect(dayName(undefined)).toBe('');
  });
});
