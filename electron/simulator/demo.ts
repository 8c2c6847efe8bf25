// The app's demo mode: the simulator's data behind the four endpoints and auth, nothing else. It does
// not import faults.ts or admin.ts (no fault injection, no /__sim/* routes), so the app's bundle leaves them out.
import { serve, type Served } from './serve';
import { DEMO_KEY, SimState, type ServeOptions } from './state';

export { DEMO_KEY };

/** The data (seed and sizes), the keys, the error form, where to listen. */
export type DemoSimulatorOptions = ServeOptions;

/** A running demo simulator: its address, key and brands. */
export type DemoSimulator = Served;

export function startDemoSimulator(options: DemoSimulatorOptions = {}): Promise<DemoSimulator> {
  return serve(new SimState(options), options);
}
