// The app contract's method and event names and their channels, with no
// dependencies, so the sandboxed preload (which can load no npm package) can
// build its bridge from them. shared/contract.ts checks at compile time that
// the method list and the schemas agree.
export const METHOD_NAMES = [
  'app:info',
  'app:state',
  'brands:list',
  'opportunities:list',
  'opportunities:counts',
  'opportunities:get',
  'triage:set',
  'triage:bulk',
  'dnc:list',
  'dnc:add',
  'dnc:remove',
  'sync:start',
  'sync:cancel',
  'export:preview',
  'export:choose-file',
  'export:start',
  'export:show-in-folder',
  'clipboard:write',
  'links:open',
  'mail:open',
  'scores:get',
  'citations:get',
  'settings:get',
  'settings:set',
  'keys:status',
  'keys:set',
  'keys:clear',
  'demo:start',
  'demo:reset',
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export const EVENT_NAMES = ['sync:event', 'sync:done', 'export:progress', 'export:done', 'app:online', 'key:status', 'core:status'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** The IPC channel a method travels on. */
export const channelOf = (m: MethodName): string => `workbench:${m}`;
/** The IPC channel an event travels on. */
export const eventChannelOf = (e: EventName): string => `workbench-event:${e}`;
