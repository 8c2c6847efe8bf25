// AA contrast (WCAG 2.x, 4.5:1 for text) for the theme's text and background
// pairs, in light and dark, read from the stylesheet the app ships.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

const css = readFileSync('renderer/src/app.css', 'utf8');

function vars(block: string): Record<string, string> {
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})/g)].map((m) => [m[1]!, m[2]!]));
}
const light = vars(css.slice(css.indexOf(':root {'), css.indexOf('@media (prefers-color-scheme: dark)')));
const dark = { ...light, ...vars(css.slice(css.indexOf('@media (prefers-color-scheme: dark)'), css.indexOf('@media (prefers-reduced-motion'))) };

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

const PAIRS: [fg: string, bg: string][] = [
  ['text', 'bg'],
  ['text', 'panel'],
  ['text', 'panel-2'],
  ['muted', 'bg'],
  ['muted', 'panel'],
  ['muted', 'panel-2'],
  ['accent-text', 'accent'],
  ['warn-text', 'warn-bg'],
  ['catch-text', 'catch-bg'],
  ['danger', 'panel'],
  ['ok', 'panel'],
  ['focus', 'panel'],
  ['text', 'row-active'],
  ['text', 'row-selected'],
];

describe('AA contrast', () => {
  for (const [name, theme] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    it.each(PAIRS)(`${name}: --%s on --%s is at least 4.5:1`, (fg, bg) => {
      expect(theme[fg], fg).toBeDefined();
      expect(theme[bg], bg).toBeDefined();
      expect(contrast(theme[fg]!, theme[bg]!)).toBeGreaterThanOrEqual(4.5);
    });
  }
});
