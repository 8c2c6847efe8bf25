// The core's handler map, one handler per contract method, typed from the
// contract's declaration so a missing or misspelt handler, or a wrong result,
// fails to compile. The domains of the user's work bring their own slice,
// declared and done side by side (opportunities.ts, triage.ts, drafts.ts,
// results.ts),
// straight over the store; the app's own methods (keys, settings, sync,
// export, files, demo) call the service. Every argument arrives as `unknown`
// and is parsed with the contract's schema before any handler runs; every
// answer is a Result (plain data).
import { contract, type ContractError, type ContractHandlers, type MethodName, type Result } from '../../../shared/contract';
import { redactKeys } from '../../../shared/rules';
import { WorkbenchError } from '../../../shared/errors';
import { draftHandlers } from './drafts';
import { opportunityHandlers } from './opportunities';
import { resultsHandlers } from './results';
import type { AppService } from './service';
import { triageHandlers } from './triage';

/** A suggested file name without path separators or control characters. */
function safeFileName(name: string): string {
  const cleaned = [...name].map((ch) => (ch.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(ch) ? '-' : ch)).join('');
  return cleaned.trim() || 'export.csv';
}

/** The core's handler map (the contract's ContractHandlers). */
export type Handlers = ContractHandlers;

/**
 * The handler map: the domains' slices, then the app's methods, each a call
 * to the service. The second argument is ignored (callers written when the
 * clipboard bypassed the service pass their Platform).
 */
export function createHandlers(s: AppService, _platform?: unknown): Handlers {
  return {
    ...opportunityHandlers(s.domain),
    ...triageHandlers(s.domain),
    ...draftHandlers(s.domain),
    ...resultsHandlers(s.resultsDomain),
    'app:info': () => s.info(),
    'app:state': () => s.state(),
    'files:choose': ({ purpose }) => s.chooseFile(purpose),
    'record:export': ({ file }) => s.record.exportRecord(file),
    'record:import-preview': ({ file }) => s.record.previewImport(file),
    'record:import': ({ file }) => s.record.importRecord(file),
    'record:dismiss-recovery': () => s.dismissRecovery(),
    'backups:list': () => s.record.listBackups(),
    'backups:restore': ({ id }) => s.record.restoreBackup(id),
    'dnc:import-preview': ({ file, column }) => s.record.previewDncCsv(file, column),
    'dnc:import': ({ file, column }) => s.record.importDncCsv(file, column),
    'dnc:export': ({ file }) => s.record.exportDncCsv(file),
    'sync:start': ({ brandIds }) => s.startSync({ brandIds }),
    'sync:cancel': ({ jobId }) => s.cancelSync(jobId),
    'export:preview': (o) => s.previewExport(o),
    'export:choose-file': ({ suggestedName }) => s.chooseExportFile(safeFileName(suggestedName)),
    'export:start': ({ options, file }) => s.startExport(options, file),
    'export:show-in-folder': ({ jobId }) => s.showExportInFolder(jobId),
    'export:cancel': ({ jobId }) => s.cancelExport(jobId),
    'export:confirm-sent': ({ exportId }) => s.confirmExportSent(exportId),
    'clipboard:write': ({ text }) => s.writeClipboard(text),
    'links:open': ({ url }) => s.openLink(url),
    'mail:open': ({ emails, subject, body }) => s.openMail(emails, subject, body),
    'scores:get': ({ brandId, breakdown, start, end }) => s.scores(brandId, breakdown, start, end),
    'citations:get': ({ brandId, mode, domain, start, end }) => s.citations(brandId, mode, { domain, start, end }),
    'settings:get': () => s.getSettings(),
    'settings:set': (patch) => s.setSettings(patch),
    'keys:status': () => s.keyStatus(),
    'keys:set': ({ key, sessionOnly }) => s.setKey(key, sessionOnly),
    'keys:clear': () => s.clearKey(),
    'demo:start': () => s.startDemo(),
    'demo:reset': () => s.resetDemo(),
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
