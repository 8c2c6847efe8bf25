// The contract as the window calls it, on a service in this process: the
// arguments parsed by the same dispatch as the core process's, a failure
// thrown as an Error carrying the contract's error (kind, message, field).
import type { MethodArgs, MethodName, MethodResult } from '../../shared/contract';
import { createHandlers, dispatch } from '../../electron/core/app/handlers';
import type { AppService } from '../../electron/core/app/service';

export type Call = <M extends MethodName>(m: M, ...args: MethodArgs<M>) => Promise<MethodResult<M>>;

export function caller(s: AppService): Call {
  const h = createHandlers(s);
  return async (m, ...args) => {
    const r = await dispatch(h, m, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), r.error);
    return r.value as never;
  };
}

/** The same, with the answer's type named by the test (for answers a test reads only in part). */
export function looseCaller(s: AppService): <T = unknown>(m: MethodName, ...args: unknown[]) => Promise<T> {
  const typed = caller(s) as unknown as (m: MethodName, ...args: unknown[]) => Promise<unknown>;
  return async <T>(m: MethodName, ...args: unknown[]) => (await typed(m, ...args)) as T;
}
