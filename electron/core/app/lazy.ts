// Parts of the core the first list page does not need (the export, the
// results, the demo's simulator, …), loaded the first time a call needs them:
// every launch waits for the core's modules to load before its first page, and
// these would only lengthen that wait. The app's build puts each such module in
// a chunk beside the core's entry (out/main/chunks; verify:package checks the
// package holds them and the entry reaches them). The core process lives as
// long as the window, so a later call pays nothing. A chunk that cannot load
// (an installation missing a file) fails that call in plain words, not the
// app; the next call tries again.
import { WorkbenchError } from '../../../shared/errors';

/** `load`, run once on the first call and kept; a failure is the call's, in plain words, and not kept. */
export function onFirstUse<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= load().catch((e: unknown) => {
      loading = null;
      throw new WorkbenchError(
        'installation-damaged',
        `The app's ${what} could not be loaded (${e instanceof Error ? e.message : String(e)}). Reinstall the app; your cache and triage are not affected.`,
        { cause: e },
      );
    });
    return loading;
  };
}
