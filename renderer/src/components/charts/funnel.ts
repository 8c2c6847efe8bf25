// The funnel's stages, in order, and its bars as the chart and its legend read them.
import type { FunnelCounts, FunnelWeek } from '../../../../shared/results';

export const FUNNEL_STAGES: readonly [keyof FunnelCounts, string][] = [
  ['pitched', 'Pitched'],
  ['replied', 'Replied'],
  ['won', 'Won'],
  ['cited', 'Cited'],
];

export interface FunnelBar {
  week: string;
  stage: keyof FunnelCounts;
  label: string;
  value: number;
}

/** One bar per week and stage. */
export const funnelBars = (weeks: readonly FunnelWeek[]): FunnelBar[] =>
  weeks.flatMap((w) => FUNNEL_STAGES.map(([stage, label]) => ({ week: w.week, stage, label, value: w[stage] })));
