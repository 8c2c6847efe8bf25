// Every key the workbench answers is in the shortcut sheet (key ?), and every
// key the sheet lists for the list is one it answers: read from the sources,
// the key map in OpportunitiesView.svelte, the keys of every view in
// lib/keys.ts, and the sheet in ShortcutsDialog.svelte, so a key added to one
// and not the other fails.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

const view = readFileSync('renderer/src/components/OpportunitiesView.svelte', 'utf8');
const sheet = readFileSync('renderer/src/components/ShortcutsDialog.svelte', 'utf8');
const everyView = readFileSync('renderer/src/lib/keys.ts', 'utf8');

/** The keys of the list's key map: the `actions` table, digits when a range of them is mapped, Escape and Ctrl+Z (undo). */
function answered(): Set<string> {
  const table = /const actions: Record<string, \(\) => void> = \{([\s\S]*?)\n {4}\};/.exec(view)?.[1];
  if (!table) throw new Error('the key map (const actions) was not found in OpportunitiesView.svelte');
  const keys = new Set([...table.matchAll(/^\s*(?:'([^']+)'|([A-Za-z0-9]+)):/gm)].map((m) => m[1] ?? m[2]!));
  const digits = /n >= (\d) && n <= (\d)\) actions\[k\]/.exec(view);
  if (digits) for (let d = Number(digits[1]); d <= Number(digits[2]); d++) keys.add(String(d));
  if (view.includes("e.key === 'Escape'")) keys.add('Escape');
  if (view.includes("e.key.toLowerCase() === 'z'")) keys.add('Ctrl+Z');
  const global = /const go: Record<string, \(\) => void> = \{([\s\S]*?)\n {2}\};/.exec(everyView)?.[1];
  if (!global) throw new Error('the keys of every view (const go) were not found in lib/keys.ts');
  for (const m of global.matchAll(/^\s*(?:'([^']+)'|([A-Za-z0-9]+)):/gm)) keys.add(m[1] ?? m[2]!);
  return keys;
}

const NAMES: Record<string, string> = { '↓': 'ArrowDown', '↑': 'ArrowUp', '←': 'ArrowLeft', '→': 'ArrowRight', Esc: 'Escape' };

/** The keys the sheet lists, each written as KeyboardEvent.key would be; `extra` are those of other places (the editor, a prompt). */
function listed(): Set<string> {
  const keys = new Set<string>();
  for (const m of sheet.matchAll(/^\s*\['([^']+)', (?:'|")/gm)) {
    for (const part of m[1]!.split(' / ')) {
      const range = /^(\d) – (\d)$/.exec(part);
      if (range) for (let d = Number(range[1]); d <= Number(range[2]); d++) keys.add(String(d));
      else keys.add(NAMES[part] ?? part);
    }
  }
  return keys;
}

/** Listed, and answered elsewhere than the key maps: the editor's snippet key; Tab (the skip link) and Space (a focused button), the browser's own. */
const ELSEWHERE = new Set(['Ctrl+J', 'Tab', 'Space']);

describe('the shortcut sheet and the keys', () => {
  it('lists every key the workbench answers', () => {
    const missing = [...answered()].filter((k) => !listed().has(k));
    expect(missing).toEqual([]);
  });
  it('lists no key the workbench does not answer', () => {
    const a = answered();
    const extra = [...listed()].filter((k) => !a.has(k) && !ELSEWHERE.has(k));
    expect(extra).toEqual([]);
  });
  it("tells apart the two things p does by where each works (an outlet's head, an opportunity)", () => {
    const lines = [...sheet.matchAll(/^\s*\['p', (?:'|")(.*)(?:'|")\],$/gm)].map((m) => m[1]!);
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => /^On (an outlet's head|an opportunity)\b/.exec(l)?.[1])).toEqual(["an outlet's head", 'an opportunity']);
  });
  it('reads enough of both to mean something', () => {
    expect(answered().size).toBeGreaterThan(30);
    expect(listed().size).toBeGreaterThan(30);
  });
});
