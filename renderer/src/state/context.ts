// The state classes, provided once by App.svelte through Svelte context and
// read by any component below it: useApp(), useList(), ... (a typed pair per
// class, from svelte's createContext), never passed down as props. They are
// built and wired together in workbench.ts.
import { createContext } from 'svelte';
import type { AppStore } from './app.svelte';
import type { InsightsStore } from './insights.svelte';
import type { ListWindow } from './list-window.svelte';
import type { OutletGroups } from './outlets.svelte';
import type { OutreachActions } from './outreach';
import type { PipelineStore } from './pipeline.svelte';
import type { PitchStore } from './pitch.svelte';
import type { RecordStore } from './record.svelte';
import type { ResultsStore } from './results.svelte';
import type { Selection } from './selection.svelte';
import type { Sending } from './sending.svelte';
import type { SnippetList } from './snippets.svelte';

export const [useApp, provideApp] = createContext<AppStore>();
export const [useList, provideList] = createContext<ListWindow>();
export const [useSelection, provideSelection] = createContext<Selection>();
export const [useOutlets, provideOutlets] = createContext<OutletGroups>();
export const [useOutreach, provideOutreach] = createContext<OutreachActions>();
export const [useInsights, provideInsights] = createContext<InsightsStore>();
export const [useRecord, provideRecord] = createContext<RecordStore>();
export const [usePipeline, providePipeline] = createContext<PipelineStore>();
export const [usePitch, providePitch] = createContext<PitchStore>();
export const [useSending, provideSending] = createContext<Sending>();
export const [useSnippets, provideSnippets] = createContext<SnippetList>();
export const [useResults, provideResults] = createContext<ResultsStore>();
