// The window's state, built once and wired together: each store takes what it
// needs of the others as callbacks at construction (as svelte.dev's
// Workspace.svelte.ts takes its collaborators), so no store holds another.
// The brand on screen (AppStore.brandId) is the one current brand; a note, a
// draft and a sent pitch each carry the opportunity they were typed for.
// App.svelte provides these through context; the tests build the same.
import type { TriageResult } from '../../../shared/contract';
import { call } from '../lib/api.svelte';
import type { AppStore } from './app.svelte';
import type { Frame } from './frame';
import { InsightsStore } from './insights.svelte';
import { ListWindow } from './list-window.svelte';
import { OutletGroups } from './outlets.svelte';
import { OutreachActions } from './outreach';
import { PipelineStore } from './pipeline.svelte';
import { PitchStore } from './pitch.svelte';
import { RecordStore } from './record.svelte';
import { ResultsStore } from './results.svelte';
import { Selection } from './selection.svelte';
import { Sending } from './sending.svelte';
import { SnippetList } from './snippets.svelte';

/** What the stores need of the frame, as callbacks over the app's state. */
export function frameOf(app: AppStore): Frame {
  return {
    get brandId() {
      return app.brandId;
    },
    toast: (text, kind, action) => app.toast(text, kind, action),
    fail: (what) => app.fail(what),
  };
}

export type Workbench = ReturnType<typeof createWorkbench>;

/** Every store of the window but the frame, wired together. */
export function createWorkbench(app: AppStore) {
  const frame = frameOf(app);
  const brandId = () => app.brandId;
  const list: ListWindow = new ListWindow({
    brandId,
    showsList: () => app.hasKey || app.demo,
    listed: ({ filter, typing, fresh, keepCursor, total }) => {
      pipeline.listed(typing);
      outlets.listed(filter, fresh);
      selection.listed(keepCursor, total);
    },
    pageArrived: (page) => selection.pageArrived(page),
    emptied: () => selection.emptied(),
  });
  const selection: Selection = new Selection({
    brandId,
    itemAt: (i) => list.itemAt(i),
    total: () => list.total,
    ensure: (start, end) => list.ensure(start, end),
    rowsChanged: (items) => list.patchRows(items),
    fail: frame.fail,
  });
  /** A triage answer: the rows, the detail, the chips and (after an action) the outlets' stage mix show it. */
  const applied = (r: TriageResult): Promise<void> => {
    selection.patch(r.items, r.detail);
    if (r.actionId !== null) void outlets.refresh();
    return list.applyResult(r);
  };
  const outlets: OutletGroups = new OutletGroups({
    frame,
    filter: () => list.filter,
    setFilter: (patch) => list.setFilter(patch),
    total: () => list.total,
    cursor: () => selection.cursor,
    moveTo: (i) => selection.moveTo(i),
    active: () => selection.active,
    select: (ids) => selection.select(ids),
  });
  const pipeline: PipelineStore = new PipelineStore({
    frame,
    filter: () => list.filter,
    setFilter: (patch) => list.setFilter(patch),
    targets: () => selection.targets(),
    active: () => selection.active,
    rowOf: (id) => list.rowOf(id),
    selectedCount: () => selection.selected.size,
    clearSelection: () => selection.clearSelection(),
    applied,
  });
  /** One opportunity read again (its draft's first save made it Drafted): its row, its detail and the chips show it. Never rejects. */
  const reread = async (b: string, id: string): Promise<void> => {
    if (b !== app.brandId) return;
    try {
      const detail = await call('opportunities:get', { brandId: b, id });
      if (!detail || b !== app.brandId) return;
      list.patchRows([detail.item]);
      selection.patch([detail.item], detail);
      await list.refreshCounts().catch(() => {});
    } catch (e) {
      frame.fail('The opportunity could not be read')(e);
    }
  };
  const pitch: PitchStore = new PitchStore({ frame, drafted: (b, id) => void reread(b, id), changed: (opened) => sending.reset(opened) });
  const sending = new Sending({
    frame,
    draft: () => pitch.open(),
    settle: () => pitch.settle(true),
    filter: () => list.filter,
    detail: () => selection.detail,
    applied: (r) => pipeline.applyResult(r),
    undo: (actionId) => void pipeline.undo(actionId),
  });
  return {
    frame,
    list,
    selection,
    outlets,
    pipeline,
    pitch,
    sending,
    outreach: new OutreachActions({ frame, detail: () => selection.detail, active: () => selection.active }),
    snippets: new SnippetList(frame),
    insights: new InsightsStore(frame),
    results: new ResultsStore(frame),
    record: new RecordStore({ frame, show: (view) => app.show(view), dataChanged: () => app.dataChanged() }),
    /** Let go of every store's timers and answers on their way (a note or draft being typed is saved first). */
    dispose(): void {
      pitch.dispose();
      pipeline.dispose();
      outlets.dispose();
      this.snippets.dispose();
      this.record.dispose();
      selection.dispose();
      list.dispose();
      this.insights.dispose();
      this.results.dispose();
    },
  };
}
