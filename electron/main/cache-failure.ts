// What the app says, and offers, when its cache cannot open: plain words and
// only the choices that fit. Starting over (the old file kept aside) is offered
// only where it is safe. No electron import: the dialog itself runs in index.ts.
export type CacheFailureKind = 'corrupt' | 'newer' | 'locked' | 'disk-full' | 'not-writable' | 'unreadable';
export type CacheFailureAction = 'open-folder' | 'quit' | 'start-over';

export interface CacheFailureDialog {
  title: string;
  message: string;
  detail: string;
  buttons: { label: string; action: CacheFailureAction }[];
  defaultId: number;
  cancelId: number;
}

const WORDS: Record<CacheFailureKind, { message: string; safeToStartOver: boolean }> = {
  corrupt: { message: 'The workbench’s cache file is damaged.', safeToStartOver: true },
  unreadable: { message: 'The workbench’s cache file could not be read.', safeToStartOver: true },
  newer: { message: 'The cache was written by a newer version of Outreach Workbench.', safeToStartOver: false },
  locked: { message: 'The cache is in use by another program.', safeToStartOver: false },
  'disk-full': { message: 'The disk is full.', safeToStartOver: false },
  'not-writable': { message: 'The workbench cannot write to its data folder.', safeToStartOver: false },
};

export function cacheFailureDialog(failure: { kind: CacheFailureKind; message: string; path: string }): CacheFailureDialog {
  const w = WORDS[failure.kind];
  const buttons: CacheFailureDialog['buttons'] = [];
  if (w.safeToStartOver) buttons.push({ label: 'Start over (keep the old file aside)', action: 'start-over' });
  buttons.push({ label: 'Open the data folder', action: 'open-folder' }, { label: 'Quit', action: 'quit' });
  const after = w.safeToStartOver
    ? 'Starting over renames the old file (nothing is deleted) and builds a fresh cache; a sync then fetches your opportunities again.'
    : failure.kind === 'newer'
      ? 'Update the app to open it. The file is left as it is.'
      : 'Nothing was changed. Fix this, then open the app again.';
  return {
    title: 'Outreach Workbench cannot open its cache',
    message: w.message,
    detail: `${failure.message}\n\n${after}`,
    buttons,
    defaultId: buttons.length - 1,
    cancelId: buttons.length - 1,
  };
}
