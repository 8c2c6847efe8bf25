// The core's handler map, one handler per contract method, typed from the
// contract's declaration so a missing or misspelt handler, or a wrong result,
// fails to compile. Every argument arrives as `unknown` and is parsed with the
// contract's schema before any handler runs; every answer is a Result (plain
// data).
//
// How a handler reaches its work (the one rule): each domain declares its
// slice of the contract in shared/contract/<domain>.ts and implements it in
// one file here, as `<domain>Handlers(collaborators)`, the handlers beside the
// functions they call. A handler calls its work directly: the store's
// functions over the open cache (DomainDeps: opportunities.ts, triage.ts,
// drafts.ts, results.ts, insights.ts), or the one part of the app's shared
// state that owns the work (service-parts.ts: connection.ts for the key,
// settings.ts, sync-jobs.ts, export-jobs.ts, record-keeping.ts for the
// record's files and backups, lifecycle.ts for demo mode, app-state.ts,
// outside.ts for the platform). Nothing in between: no handler goes through
// AppService, which only opens, launches and closes the app.
import { contract, type ContractError, type ContractHandlers, type MethodName, type Result } from '../../../shared/contract';
import { redactKeys } from '../../../shared/rules';
import { WorkbenchError } from '../../../shared/errors';
import { appHandlers } from './app-state';
import { keyHandlers } from './connection';
import { draftHandlers } from './drafts';
import { exportHandlers } from './export-jobs';
import { insightsHandlers } from './insights';
import { demoHandlers } from './lifecycle';
import { opportunityHandlers } from './opportunities';
import { outletHandlers } from './outlets';
import { outsideHandlers } from './outside';
import { recordHandlers } from './record-keeping';
import { resultsHandlers } from './results';
import type { AppService } from './service';
import { settingsHandlers } from './settings';
import { syncHandlers } from './sync-jobs';
import { triageHandlers } from './triage';

/** The core's handler map (the contract's ContractHandlers). */
export type Handlers = ContractHandlers;

/**
 * The handler map: every domain's slice, each given its collaborators from
 * the app's parts. The second argument is ignored (callers written when the
 * clipboard bypassed the service pass their Platform).
 */
export function createHandlers(app: Pick<AppService, 'parts'>, _platform?: unknown): Handlers {
  const p = app.parts;
  return {
    ...appHandlers(p),
    ...opportunityHandlers(p.domain),
    ...triageHandlers(p.domain),
    ...draftHandlers(p.domain),
    ...outletHandlers(p.domain),
    ...resultsHandlers(p.results),
    ...insightsHandlers(p.domain),
    ...recordHandlers(p.record),
    ...syncHandlers(p.sync),
    ...exportHandlers(p.exports),
    ...outsideHandlers(p.domain.platform),
    ...settingsHandlers(p.settings),
    ...keyHandlers(p.connection),
    ...demoHandlers(p.life),
  };
}

/**
 * Turn any failure into plain words that may cross to the renderer (redacted:
 * no key ever). An error of the app's vocabulary keeps its kind; anything else
 * is a bug (a TypeError, a RangeError from a programming mistake): `internal`,
 * and its stack goes to `onInternal` (the log), never to the screen.
 */
export function toContractError(e: unknown, onInternal?: (e: unknown) => void): ContractError {
  if (e instanceof WorkbenchError && e.kind !== 'internal') {
    const plain = e.toPlain();
    return { ...plain, message: redactKeys(plain.message) };
  }
  onInternal?.(e);
  return { kind: 'internal', message: redactKeys(`Something went wrong: ${e instanceof Error ? e.message : String(e)}`) };
}

/**
 * Parse the raw arguments of `name` with its schema and run its handler.
 * Unknown methods and malformed arguments never reach the service.
 */
export async function dispatch(handlers: Handlers, name: string, raw: unknown, onInternal?: (e: unknown) => void): Promise<Result<unknown>> {
  if (!Object.hasOwn(contract, name)) return { ok: false, error: { kind: 'unknown-method', message: `No such method: ${String(name).slice(0, 80)}` } };
  const m = name as MethodName;
  const parsed = contract[m].args.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: {
        kind: 'invalid-input',
        message: `Refused ${m}: ${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}` : 'malformed arguments'}`,
        ...(issue?.path.length ? { field: issue.path.map(String).join('.') } : {}),
      },
    };
  }
  try {
    const fn = handlers[m] as (...a: unknown[]) => unknown;
    return { ok: true, value: await fn(...(parsed.data as unknown[])) };
  } catch (e) {
    return { ok: false, error: toContractError(e, onInternal) };
  }
}
