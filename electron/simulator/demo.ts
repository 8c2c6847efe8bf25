// The app's demo mode: the simulator's data behind the four endpoints and auth, nothing else. It does
// not import faults.ts or admin.ts (no fault injection, no /__sim/* routes), so the app's bundle leaves them out.
import type { DemoPitch } from './pitches';
import { serve, type Served } from './serve';
import { DEMO_KEY, SimState, type ServeOptions } from './state';

export { DEMO_KEY };
export type { DemoPitch };

/** The data (seed and sizes), the keys, the error form, where to listen. */
export type DemoSimulatorOptions = ServeOptions;

/** A running demo simulator: its address, key and brands, and the demo user's pitches (the app's demo puts them in its record). */
export type DemoSimulator = Served & { pitches(): { brandId: string; pitches: DemoPitch[] }[] };

export async function startDemoSimulator(options: DemoSimulatorOptions = {}): Promise<DemoSimulator> {
  const state = new SimState(options);
  const served = await serve(state, options);
  return Object.assign(served, { pitches: () => state.brands.map((b) => ({ brandId: b.id, pitches: b.pitches() })) });
}
