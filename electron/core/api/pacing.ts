// Steady pacing: requests spaced evenly to stay under the plan's rate, timed by the
// Clock seam so tests need no real waiting.
import type { Clock } from '../seams';
import { cancelledError } from './errors';

/** Sleep on the clock; a cancelled sleep is the client's 'cancelled' error. */
export async function sleepOrCancel(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await clock.sleep(ms, signal);
  } catch {
    throw cancelledError();
  }
}

export class Pacer {
  private readonly intervalMs: number;
  private nextSlot = 0;

  /** `requestsPerMinute` 0 (or less) turns pacing off. */
  constructor(
    private readonly clock: Clock,
    requestsPerMinute: number,
  ) {
    this.intervalMs = requestsPerMinute > 0 ? 60_000 / requestsPerMinute : 0;
  }

  /** Take the next free slot; returns how many ms from now it starts (0: now). */
  reserve(): number {
    if (this.intervalMs === 0) return 0;
    const now = this.clock.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    return slot - now;
  }

  /** Wait for this request's slot under the steady pace. */
  async wait(signal?: AbortSignal): Promise<void> {
    const ms = this.reserve();
    if (ms > 0) await sleepOrCancel(this.clock, ms, signal);
  }
}
