// A clock that does not wait: sleeps return at once and move time forward,
// and every sleep is recorded, so backoff and pacing are testable exactly.
import type { Clock } from '../../electron/core/seams';

export class FakeClock implements Clock {
  t = Date.UTC(2026, 10, 20, 12, 0, 0);
  readonly sleeps: number[] = [];
  now(): number {
    return this.t;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.t += ms;
  }
}
