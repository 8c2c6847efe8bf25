// Daily visibility and presence scores for get-scores, with model and prompt breakdowns and the
// odd day without a report; deterministic from (seed, brand, day).
import { dateFromDayNumber, dayNumber } from '../../shared/calendar';
import { hash32 } from './rng';

export const MODELS = ['gpt-4o', 'claude-sonnet-4', 'gemini-2.5-pro', 'perplexity-sonar'];

export function promptsFor(brandName: string): string[] {
  return [
    `best ${brandName.split(' ')[1]?.toLowerCase() ?? 'tools'} brands`,
    `is ${brandName} worth it`,
    `${brandName} vs competitors`,
    `top rated ${brandName.split(' ')[1]?.toLowerCase() ?? 'products'} ${2026}`,
    `where to buy ${brandName}`,
    `${brandName} reviews`,
  ];
}

function wave(seed: number, brand: number, day: number, salt: number, base: number): number {
  const noise = (hash32(seed, brand, day, salt) % 1000) / 1000 - 0.5;
  const v = base + 18 * Math.sin(day / 13 + brand + salt) + 6 * noise;
  return Math.round(Math.max(0, Math.min(100, v)) * 10) / 10;
}

/** A day with no report (shown as a gap, not a zero). */
export function missingDay(seed: number, brand: number, day: number): boolean {
  return hash32(seed, brand, day, 77) % 31 === 0;
}

export function scoreEntries(seed: number, brand: { index: number; name: string }, start: string, end: string, breakdown: string[]): Record<string, unknown>[] {
  const s = dayNumber(start) ?? 0;
  const e = dayNumber(end) ?? 0;
  const out: Record<string, unknown>[] = [];
  const byModel = breakdown.includes('model');
  const byPrompt = breakdown.includes('prompt');
  const models = byModel ? MODELS : [null];
  const prompts = byPrompt ? promptsFor(brand.name) : [null];
  for (let d = s; d <= e; d++) {
    if (missingDay(seed, brand.index, d)) continue;
    const date = dateFromDayNumber(d);
    models.forEach((m, mi) => {
      prompts.forEach((p, pi) => {
        const salt = 1 + (m === null ? 0 : mi + 1) * 10 + (p === null ? 0 : pi + 1);
        const entry: Record<string, unknown> = { date };
        if (m !== null) entry.model = m;
        if (p !== null) entry.prompt = p;
        entry.visibility = wave(seed, brand.index, d, salt, 55 - mi * 6);
        entry.presence = wave(seed, brand.index, d, salt + 500, 70 - pi * 4);
        out.push(entry);
      });
    });
  }
  return out;
}
