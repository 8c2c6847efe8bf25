// The Results' calendar: the periods a PR person reports on, and weeks from Monday.
import { describe, expect, it } from 'vitest';
import { evidenceWords, periodOf, weekOf, weeksBetween } from '../../../shared/results';

describe('periods', () => {
  it('this month to today, last month whole (across a year), this quarter to today', () => {
    expect(periodOf('this-month', '2026-11-20')).toEqual({ from: '2026-11-01', to: '2026-11-20', label: 'November 2026' });
    expect(periodOf('last-month', '2026-11-20')).toEqual({ from: '2026-10-01', to: '2026-10-31', label: 'October 2026' });
    expect(periodOf('last-month', '2026-01-05')).toEqual({ from: '2025-12-01', to: '2025-12-31', label: 'December 2025' });
    expect(periodOf('last-month', '2028-03-10')).toEqual({ from: '2028-02-01', to: '2028-02-29', label: 'February 2028' });
    expect(periodOf('quarter', '2026-11-20')).toEqual({ from: '2026-10-01', to: '2026-11-20', label: 'Q4 2026' });
    expect(periodOf('quarter', '2026-01-01')).toEqual({ from: '2026-01-01', to: '2026-01-01', label: 'Q1 2026' });
  });
  it('custom days, in either order', () => {
    expect(periodOf('custom', '2026-11-20', { from: '2026-10-03', to: '2026-11-02' })).toEqual({
      from: '2026-10-03',
      to: '2026-11-02',
      label: '2026-10-03 to 2026-11-02',
    });
    expect(periodOf('custom', '2026-11-20', { from: '2026-11-02', to: '2026-10-03' }).from).toBe('2026-10-03');
  });
});

describe('weeks', () => {
  it('start on Monday', () => {
    expect(weekOf('2026-11-23')).toBe('2026-11-23'); // a Monday
    expect(weekOf('2026-11-29')).toBe('2026-11-23'); // its Sunday
    expect(weekOf('2026-11-30')).toBe('2026-11-30');
    expect(weekOf('2027-01-01')).toBe('2026-12-28');
  });
  it('every week touching a period, from the Monday of its first day', () => {
    expect(weeksBetween('2026-11-01', '2026-11-20')).toEqual(['2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16']);
  });
});

describe('evidence in words', () => {
  it('says where and how', () => {
    expect(evidenceWords({ match: 'page', strength: 'flip' }, 'Acme')).toBe('the page you pitched started to mention Acme after the pitch');
    expect(evidenceWords({ match: 'outlet', strength: 'new' }, 'Acme')).toBe('another page at the outlet, cited after the pitch, mentions Acme');
  });
});
