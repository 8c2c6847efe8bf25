// The toasts' strip after a run of triage: at most three on screen, the newest
// last; a toast with the same words as one still shown takes its place; and a
// toast a person may still act on (an Undo, an error) is never dropped before
// its time: pushed off by newer ones, it waits, and comes back when room frees.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TOASTS, TOAST_MS, Toaster } from '../../../renderer/src/state/toasts.svelte';

let toaster: Toaster;
beforeEach(() => {
  vi.useFakeTimers();
  toaster = new Toaster();
});
afterEach(() => {
  toaster.dispose();
  vi.useRealTimers();
});
const texts = () => toaster.list.map((t) => t.text);
const undo = { label: 'Undo', run: () => {} };

describe('the toasts on screen', () => {
  it('shows at most three, the newest last, dropping the oldest that asks nothing of the person', () => {
    for (const t of ['Saved.', 'Copied.', 'Synced.', 'Exported.', 'It is back in the list.']) toaster.show(t);
    expect(MAX_TOASTS).toBe(3);
    expect(texts()).toEqual(['Synced.', 'Exported.', 'It is back in the list.']);
  });

  it('a toast with the same words as one shown replaces it (moved to the end, its time restarted)', () => {
    toaster.show('Copied.');
    toaster.show('Saved.');
    vi.advanceTimersByTime(TOAST_MS.info - 100);
    toaster.show('Copied.');
    expect(texts()).toEqual(['Saved.', 'Copied.']);
    vi.advanceTimersByTime(200);
    expect(texts()).toEqual(['Copied.']);
  });

  it('an Undo is never dropped before its time: pushed off, it waits and comes back with the time it had left', () => {
    toaster.show('Marked contacted today.', 'info', undo);
    toaster.show('Marked followed up today.', 'info', undo);
    toaster.show('Copied.');
    toaster.show('Stage: New.', 'info', undo);
    // the plain toast went first
    expect(texts()).toEqual(['Marked contacted today.', 'Marked followed up today.', 'Stage: New.']);
    vi.advanceTimersByTime(1000);
    toaster.show('Stage: Not a fit.', 'info', undo);
    // three Undos and a fourth: the oldest waits off screen
    expect(texts()).toEqual(['Marked followed up today.', 'Stage: New.', 'Stage: Not a fit.']);
    const newest = toaster.list.at(-1)!.id;
    toaster.close(newest);
    expect(texts()).toEqual(['Marked contacted today.', 'Marked followed up today.', 'Stage: New.']);
    // it had TOAST_MS.action - 1000 left when it was pushed off
    vi.advanceTimersByTime(TOAST_MS.action - 1000 - 1);
    expect(texts()).toContain('Marked contacted today.');
    vi.advanceTimersByTime(2);
    expect(texts()).not.toContain('Marked contacted today.');
  });

  it('the newest is always shown: a plain toast after three Undos sets the oldest Undo aside, not itself', () => {
    for (const t of ['a', 'b', 'c']) toaster.show(t, 'info', undo);
    toaster.show('Synced: 0 new, 1 changed.');
    expect(texts()).toEqual(['b', 'c', 'Synced: 0 new, 1 changed.']);
    toaster.close(toaster.list.at(-1)!.id);
    expect(texts()).toEqual(['a', 'b', 'c']);
  });

  it('an Undo with the same words as another is not replaced (each takes back its own action)', () => {
    toaster.show('Stage: New.', 'info', undo);
    toaster.show('Stage: New.', 'info', undo);
    expect(texts()).toEqual(['Stage: New.', 'Stage: New.']);
  });

  it('an error waits like an Undo rather than being dropped', () => {
    toaster.show('The cache could not be read: the disk is full. Free some space and try again.', 'error');
    for (const t of ['a', 'b', 'c']) toaster.show(t, 'info', undo);
    expect(texts()).toEqual(['a', 'b', 'c']);
    toaster.close(toaster.list[0]!.id);
    expect(texts()[0]).toMatch(/^The cache could not be read/);
  });
});
