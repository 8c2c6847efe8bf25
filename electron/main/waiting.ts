// Waiting on the core process within limits: a promise raced against a timer, and the wait for the
// core to open its cache, whose limit starts again, longer, each time the core says it has begun a
// long step (a migration of a large cache takes minutes; a core that says nothing does not get them).
import type { CoreFailure, StartProgress } from '../../shared/core-link';

/** How long the core may take to open its cache before start-up counts as failed, unless it says it is on a long step. */
export const CORE_READY_TIMEOUT_MS = 30_000;
/**
 * How long one long step of opening the cache (a migration, the compaction, the check after a crash)
 * may take once the core has said it started it. The step runs on the core's thread, which says
 * nothing more until it ends: upgrading a 300,000-opportunity cache takes minutes.
 */
export const CORE_STEP_TIMEOUT_MS = 15 * 60_000;

/** A promise that settles as `p` does, or rejects with `message` after `ms`. */
export function within<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export interface StartingCore {
  ready(): Promise<CoreFailure | null>;
  onStartProgress?(listener: (progress: StartProgress) => void): void;
}

/**
 * The core's cache open (null) or its failure. The limit is readyTimeoutMs, and starts again, at
 * stepTimeoutMs, each time the core says it has begun a long step: a slow upgrade is waited for.
 * Each step is written to the log as it begins.
 */
export function waitForCore(
  c: StartingCore,
  opts: { readyTimeoutMs: number; stepTimeoutMs: number; log: { info?(message: string): void } },
): Promise<CoreFailure | null> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const arm = (ms: number, message: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        settled = true;
        reject(new Error(message));
      }, ms);
    };
    arm(opts.readyTimeoutMs, `The workbench's engine did not finish starting within ${Math.round(opts.readyTimeoutMs / 1000)} seconds.`);
    c.onStartProgress?.((progress) => {
      if (settled) return;
      opts.log.info?.(`opening the cache: ${progress.message}`);
      const minutes = Math.round(opts.stepTimeoutMs / 60_000);
      arm(opts.stepTimeoutMs, `The workbench's engine did not finish a step of opening the cache within ${minutes} minutes (${progress.message})`);
    });
    c.ready().then(
      (failure) => {
        settled = true;
        clearTimeout(timer);
        resolve(failure);
      },
      (e: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
