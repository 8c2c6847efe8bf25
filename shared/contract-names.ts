// The contract's method and event names as plain data, and their channels.
// The sandboxed preload can load no npm package (so not zod, and not
// shared/contract.ts, which is made of zod schemas): it builds window.workbench
// from these lists. The declaration in shared/contract.ts is the source; the
// checks at the bottom make these lists name exactly its keys, both ways, so
// a name missing here or misspelt here fails to compile.
import type { EventName, MethodName } from './contract';

export type { EventName, MethodName };

export const METHOD_NAMES = [
  'app:info',
  'app:state',
  'brands:list',
  'opportunities:list',
  'opportunities:view',
  'opportunities:counts',
  'opportunities:get',
  'triage:apply',
  'triage:undo',
  'dnc:list',
  'dnc:add',
  'dnc:remove',
  'history:get',
  'files:choose',
  'record:export',
  'record:import-preview',
  'record:import',
  'record:dismiss-recovery',
  'backups:list',
  'backups:restore',
  'dnc:import-preview',
  'dnc:import',
  'dnc:export',
  'drafts:get',
  'drafts:save',
  'drafts:reset',
  'snippets:list',
  'snippets:save',
  'snippets:remove',
  'pipeline:due',
  'pipeline:warnings',
  'mail:compose',
  'opportunities:domains',
  'opportunities:outlets',
  'outlets:ids',
  'outlets:plan',
  'outlets:contacted',
  'sync:start',
  'sync:cancel',
  'export:preview',
  'export:choose-file',
  'export:start',
  'export:show-in-folder',
  'export:cancel',
  'export:confirm-sent',
  'clipboard:write',
  'links:open',
  'mail:open',
  'scores:get',
  'citations:get',
  'results:get',
  'results:evidence',
  'results:cited',
  'results:save-report',
  'results:export',
  'settings:get',
  'settings:set',
  'keys:status',
  'keys:set',
  'keys:clear',
  'demo:start',
  'demo:reset',
] as const satisfies readonly MethodName[];

export const EVENT_NAMES = [
  'sync:event',
  'sync:done',
  'export:progress',
  'export:done',
  'app:online',
  'key:status',
  'app:command',
  'cache:recovered',
  'cache:waiting',
  'core:status',
  'app:show',
] as const satisfies readonly EventName[];

/** The IPC channel a method travels on. */
export const channelOf = (m: MethodName): string => `workbench:${m}`;
/** The IPC channel an event travels on. */
export const eventChannelOf = (e: EventName): string => `workbench-event:${e}`;

// `satisfies` above refuses a name the declaration lacks; these refuse a declared name left out.
type NoneLeftOut<Declared extends string, Listed extends string> = [Exclude<Declared, Listed>] extends [never] ? true : { leftOut: Exclude<Declared, Listed> };
type Holds<T extends true> = T;
type _MethodNamesComplete = Holds<NoneLeftOut<MethodName, (typeof METHOD_NAMES)[number]>>;
type _EventNamesComplete = Holds<NoneLeftOut<EventName, (typeof EVENT_NAMES)[number]>>;
