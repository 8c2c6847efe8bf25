// The renderer's only way out: window.workbench (the contract), with each
// Result unwrapped into a value or a thrown WorkbenchError (shared/errors.ts:
// the app's one vocabulary of failures) in plain words.
// Arguments cross as $state.snapshot copies: plain data, never a reactive proxy.
import { WorkbenchError } from '../../../shared/errors';
import type { EventName, EventPayloads, MethodArgs, MethodName, MethodResult, WorkbenchMethod, WorkbenchMethods } from '../../../shared/contract';

export { WorkbenchError };

export async function call<M extends MethodName>(method: M, ...args: MethodArgs<M>): Promise<MethodResult<M>> {
  const methods: WorkbenchMethods = window.workbench;
  const fn: WorkbenchMethod<M> = methods[method];
  const r = await fn(...($state.snapshot(args) as MethodArgs<M>));
  if (!r.ok) throw WorkbenchError.from(r.error);
  return r.value;
}

export function on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
  return window.workbench.on(event, listener);
}
