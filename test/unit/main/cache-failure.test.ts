// The dialog for a cache that cannot open: plain words, the choices that fit,
// start over only where it is safe, and Quit for Enter and Esc.
import { describe, expect, it } from 'vitest';
import { cacheFailureDialog, type CacheFailureKind } from '../../../electron/main/cache-failure';
import type { CacheFailureKind as StoreKind } from '../../../electron/core/store/db';

const PATH = '/home/u/.config/Outreach Workbench/workbench.db';
const ALL: CacheFailureKind[] = [
  'cache-damaged',
  'io-error',
  'cache-newer',
  'cache-locked',
  'disk-full',
  'read-only',
  'permission',
  'installation-damaged',
  'not-app-cache',
  'internal',
];
const dialogFor = (kind: CacheFailureKind, message = 'why it failed') => cacheFailureDialog({ kind, message, path: PATH });
const actions = (kind: CacheFailureKind) => dialogFor(kind).buttons.map((b) => b.action);

describe('the choices', () => {
  it('offers start over (the old file kept) for a damaged or unreadable file', () => {
    expect(actions('cache-damaged')).toEqual(['start-over', 'open-folder', 'quit']);
    expect(actions('io-error')).toEqual(['start-over', 'open-folder', 'quit']);
  });

  it.each(['cache-newer', 'cache-locked', 'disk-full', 'read-only', 'permission', 'installation-damaged', 'not-app-cache', 'internal'] as const)(
    'never offers start over when %s',
    (kind) => {
      expect(actions(kind)).toEqual(['open-folder', 'quit']);
    },
  );

  it.each(ALL)('%s: Quit is the default and the cancel choice, and every choice is labelled', (kind) => {
    const d = dialogFor(kind);
    expect(d.buttons[d.defaultId]!.action).toBe('quit');
    expect(d.buttons[d.cancelId]!.action).toBe('quit');
    expect(d.buttons.map((b) => b.action)).toContain('open-folder');
    for (const b of d.buttons) expect(b.label.trim()).not.toBe('');
    expect(new Set(d.buttons.map((b) => b.label)).size).toBe(d.buttons.length);
  });

  it('covers every kind the store reports (a new kind there fails to compile here)', () => {
    const fromStore: Record<StoreKind, true> = {
      'cache-damaged': true,
      'io-error': true,
      'cache-newer': true,
      'cache-locked': true,
      'disk-full': true,
      'read-only': true,
      permission: true,
      'installation-damaged': true,
      'not-app-cache': true,
    };
    for (const kind of Object.keys(fromStore) as StoreKind[]) expect(dialogFor(kind).message.length).toBeGreaterThan(10);
  });
});

describe('the words', () => {
  it.each([
    ['cache-damaged', /damaged/],
    ['io-error', /could not read/],
    ['cache-newer', /newer version/],
    ['cache-locked', /in use by another program/],
    ['disk-full', /disk is full/],
    ['permission', /cannot write to its data folder/],
    ['read-only', /read-only/],
    ['installation-damaged', /installation is damaged/],
    ['internal', /could not open its cache/],
  ] as const)('%s says so in the headline: %s', (kind, headline) => {
    expect(dialogFor(kind).message).toMatch(headline);
  });

  it('the detail says what start over does (nothing deleted), the file, and the technical reason', () => {
    const d = dialogFor('cache-damaged', 'integrity check: page 7 is never used');
    expect(d.detail).toMatch(/renames the old file \(nothing is deleted/);
    expect(d.detail).toContain(`Cache file: ${PATH}`);
    expect(d.detail).toContain('Details: integrity check: page 7 is never used');
  });

  it('a newer file is left as it is, and the person is told to update', () => {
    const d = dialogFor('cache-newer', 'schema 9; this version knows up to 2');
    expect(d.detail).toMatch(/Install the newer version/);
    expect(d.detail).toMatch(/left exactly as it is/);
    expect(d.detail).not.toMatch(/Start over/);
    expect(d.detail).toContain('schema 9');
  });

  it('locked names the likely holder; disk-full and not-writable say what to fix; none mention starting over', () => {
    expect(dialogFor('cache-locked').detail).toMatch(/Another Outreach Workbench, or a `workbench` command/);
    expect(dialogFor('disk-full').detail).toMatch(/Free some space/);
    expect(dialogFor('permission').detail).toMatch(/may write there/);
    for (const k of ['cache-locked', 'disk-full', 'permission'] as const) expect(dialogFor(k).detail).not.toMatch(/Start over/);
  });

  it('never shows a key that slipped into the technical message', () => {
    const key = 'sk_live_' + 'Z9y8X7w6'.repeat(4);
    const d = dialogFor('io-error', `failed while ${key} was set`);
    expect(d.detail).not.toContain(key);
    expect(d.detail).toContain('sk_live_[redacted]');
  });

  it('an unknown kind from a newer core falls back to the plain, safe choices', () => {
    const d = cacheFailureDialog({ kind: 'something-new' as CacheFailureKind, message: 'm', path: PATH });
    expect(d.buttons.map((b) => b.action)).toEqual(['open-folder', 'quit']);
  });
});
