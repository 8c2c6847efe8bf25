// The state classes, provided once by App.svelte through Svelte context and
// read by any component below it: useApp(), useOpportunities(), ... (a typed
// pair per class, from svelte's createContext), never passed down as props.
import { createContext } from 'svelte';
import type { AppStore } from './app.svelte';
import type { InsightsStore } from './insights.svelte';
import type { OpportunitiesStore } from './opportunities.svelte';
import type { OutreachActions } from './outreach';
import type { PipelineStore } from './pipeline.svelte';
import type { PitchStore } from './pitch.svelte';
import type { RecordStore } from './record.svelte';
import type { ResultsStore } from './results.svelte';
import type { SnippetsStore } from './snippets.svelte';

export const [useApp, provideApp] = createContext<AppStore>();
export const [useOpportunities, provideOpportunities] = createContext<OpportunitiesStore>();
export const [useOutreach, provideOutreach] = createContext<OutreachActions>();
export const [useInsights, provideInsights] = createContext<InsightsStore>();
export const [useRecord, provideRecord] = createContext<RecordStore>();
export const [usePipeline, providePipeline] = createContext<PipelineStore>();
export const [usePitch, providePitch] = createContext<PitchStore>();
export const [useSnippets, provideSnippets] = createContext<SnippetsStore>();
export const [useResults, provideResults] = createContext<ResultsStore>();
