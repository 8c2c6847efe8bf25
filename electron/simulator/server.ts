// A local simulator of the Trakkr API (spec: api-spec.md, api-facts.md) on loopback, with faults on
// demand and admin routes: the whole simulator, for tests, benchmarks and the CLI. The app's demo
// mode uses demo.ts, which serves the same data without faults.ts and admin.ts.
import { adminRoutes, inject, mutate, type MutateRequest, type MutateResult } from './admin';
import { FaultQueue, faultHooks, type Fault } from './faults';
import { RateLimiter } from './rate-limit';
import { serve, type Served } from './serve';
import { SimState, type ServeOptions } from './state';
import type { DemoPitch } from './pitches';

export { DEMO_KEY, type ErrorForm } from './state';
export { FAULT_KINDS, type Fault } from './faults';
export type { RateLimitBody } from './rate-limit';
export type { MutateRequest } from './admin';
export type { DemoPitch } from './pitches';

export interface SimulatorOptions extends ServeOptions {
  /** Requests per minute per key; 0 = no limit. */
  rateLimitPerMinute?: number;
  /** Delay before every answer, ms. */
  latencyMs?: number;
  faults?: Fault[];
}

export interface Simulator extends Served {
  addFaults(...faults: Fault[]): void;
  clearFaults(): void;
  setRateLimit(perMinute: number): void;
  mutate(m: MutateRequest): MutateResult;
  inject(brand: string, record: Record<string, unknown>): void;
  /** The demo user's pitches, per brand (what the app's demo puts in its record). */
  pitches(): { brandId: string; pitches: DemoPitch[] }[];
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const state = new SimState(options);
  const faults = new FaultQueue(options.faults);
  const limiter = new RateLimiter(options.rateLimitPerMinute ?? 0);
  const served = await serve(state, options, {
    intercept: adminRoutes(state, faults, limiter),
    ...faultHooks(state, faults, limiter, options.latencyMs ?? 0),
  });
  // Assigned onto the served object, so its `requests` getter stays live.
  return Object.assign(served, {
    addFaults: (...f: Fault[]) => faults.add(...f),
    clearFaults: () => faults.clear(),
    setRateLimit: (perMinute: number) => limiter.set(perMinute),
    mutate: (m: MutateRequest) => mutate(state, m),
    inject: (brand: string, record: Record<string, unknown>) => inject(state, brand, record),
    pitches: () => state.brands.map((b) => ({ brandId: b.id, pitches: b.pitches() })),
  });
}
