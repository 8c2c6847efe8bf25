// What the app says, and offers, when its cache cannot open: plain words and
// only the choices that fit. No electron import: index.ts shows the dialog
// with `dialog.showMessageBox`, and this model is tested in Node.
//
// Start over (the old file renamed aside, never deleted) is offered only where
// it is safe and helps: a damaged or unreadable file. Never for a file from a
// newer version (the newer app still reads it), one held by another program
// (it is in use), a full disk or a folder that cannot be written (a fresh
// cache would fail the same way), nor for an installation that is damaged (the
// database module cannot load: the cache is healthy, and only reinstalling helps).
import type { CoreFailureKind } from '../../shared/core-link';
import { redactKeys } from '../../shared/rules';

/** The kinds the store reports (electron/core/store/db.ts), plus `internal` for anything else. */
export type CacheFailureKind = CoreFailureKind;
export type CacheFailureAction = 'open-folder' | 'quit' | 'start-over';

export interface CacheFailure {
  kind: CacheFailureKind;
  message: string;
  path: string;
}

export interface CacheFailureDialog {
  title: string;
  /** The headline. */
  message: string;
  /** What it means, what each choice does, the file, and the technical detail. */
  detail: string;
  buttons: { label: string; action: CacheFailureAction }[];
  /** Quit, so Enter never moves a file. */
  defaultId: number;
  /** Quit, for Esc or closing the dialog. */
  cancelId: number;
}

const WORDS: Record<CacheFailureKind, { headline: string; explain: string; startOver: boolean }> = {
  'cache-damaged': {
    headline: 'Outreach Workbench’s cache file is damaged.',
    explain: 'The file that holds your opportunities, triage and notes can no longer be read as a whole.',
    startOver: true,
  },
  'io-error': {
    headline: 'Outreach Workbench could not read its cache file.',
    explain: 'The file could not be opened or read.',
    startOver: true,
  },
  'cache-newer': {
    headline: 'This cache was made by a newer version of Outreach Workbench.',
    explain: 'This version cannot read it. Install the newer version to carry on where you left off. The file was left exactly as it is.',
    startOver: false,
  },
  'cache-locked': {
    headline: 'The cache is in use by another program.',
    explain:
      'Another Outreach Workbench, or a `workbench` command that is still running, has the cache open. Close it, then open the app again. Nothing was changed.',
    startOver: false,
  },
  'disk-full': {
    headline: 'The disk is full.',
    explain:
      'Outreach Workbench needs some free space on the disk that holds its data folder. Free some space, then open the app again. Nothing in the cache was changed.',
    startOver: false,
  },
  'read-only': {
    headline: 'Outreach Workbench’s data folder is read-only.',
    explain:
      'The disk or the cache file cannot be written. Make the folder and its files writable (or move the data folder to a writable disk), then open the app again. Nothing was changed.',
    startOver: false,
  },
  permission: {
    headline: 'Outreach Workbench cannot write to its data folder.',
    explain: 'Check that the folder exists and that your account may write there, then open the app again. Nothing was changed.',
    startOver: false,
  },
  'not-app-cache': {
    headline: 'The file in Outreach Workbench’s data folder is not its cache.',
    explain:
      'The file named as the cache is another program’s database. It was left exactly as it is: move it out of the data folder (or put the cache elsewhere), then open the app again.',
    startOver: false,
  },
  'installation-damaged': {
    headline: 'Outreach Workbench’s installation is damaged.',
    explain:
      'A part of the app it needs to read its cache (its database module) could not load. This is a fault in the installed app, not in your data: your cache, triage and notes were not touched. Download Outreach Workbench again and reinstall it, then open it.',
    startOver: false,
  },
  internal: {
    headline: 'Outreach Workbench could not open its cache.',
    explain: 'Something unexpected went wrong while opening it. The file was left as it is; the log in the data folder has the details.',
    startOver: false,
  },
};

const START_OVER =
  'Start over renames the old file (nothing is deleted; it stays in the data folder) and makes a fresh cache, carrying over every triage row, note and do-not-contact entry it can still read, and the newest backup of them; the next sync fetches your opportunities again.';

export function cacheFailureDialog(failure: CacheFailure): CacheFailureDialog {
  const w = WORDS[failure.kind] ?? WORDS.internal;
  const buttons: CacheFailureDialog['buttons'] = [];
  if (w.startOver) buttons.push({ label: 'Start over (keep the old file)', action: 'start-over' });
  buttons.push({ label: 'Open the data folder', action: 'open-folder' }, { label: 'Quit', action: 'quit' });
  const quit = buttons.length - 1;
  const detail = [w.explain, w.startOver ? START_OVER : null, `Cache file: ${failure.path}`, `Details: ${redactKeys(failure.message)}`]
    .filter((s) => s !== null)
    .join('\n\n');
  return { title: 'Outreach Workbench cannot open its cache', message: w.headline, detail, buttons, defaultId: quit, cancelId: quit };
}
