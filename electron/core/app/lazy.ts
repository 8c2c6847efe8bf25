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

/**
 * What a module that cannot load because its file is missing or unreadable (an installation missing a chunk, a damaged
 * one) throws: Node's "not found" codes, a file error, or a chunk that does not parse. Anything else is a fault of the
 * module's own code (a TypeError at its top level), which stays the call's internal error, logged with its stack.
 */
const MISSING_CODES = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND', 'ENOENT', 'EACCES', 'EIO', 'ENOTDIR']);
function isMissing(e: unknown): boolean {
  // The error itself or one it wraps (a loader's own error around the file's).
  for (let x = e, depth = 0; x && depth < 5; x = (x as { cause?: unknown }).cause, depth++)
    if (x instanceof SyntaxError || MISSING_CODES.has(String((x as { code?: unknown }).code))) return true;
  return false;
}

/** `load`, run once on the first call and kept; a failure is the call's (in plain words when its file is missing) and not kept. */
export function onFirstUse<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= load().catch((e: unknown) => {
      loading = null;
      if (!isMissing(e)) throw e;
      throw new WorkbenchError(
        'installation-damaged',
        `The app's ${what} could not be loaded (${e instanceof Error ? e.message : String(e)}). Reinstall the app; your cache and triage are not affected.`,
        { cause: e },
      );
    });
    return loading;
  };
}
