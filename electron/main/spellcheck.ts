// Spelling in the window's text fields without a silent download. macOS checks spelling with its own
// dictionaries; on Windows and Linux Electron's checker needs Hunspell dictionaries it would download
// from Google's servers, so there it stays off until the person chooses that download in Settings
// (the `spellcheck` setting: 'system', the default; 'download'; 'off').
import type { Settings } from '../../shared/contract';

export type SpellcheckChoice = Settings['spellcheck'];

export interface SpellcheckPlan {
  enabled: boolean;
  /** Languages for a downloaded dictionary; null where the OS decides (macOS) or nothing is checked. */
  languages: string[] | null;
  /** Whether a dictionary may be fetched from Google's servers. */
  download: boolean;
}

/**
 * What the session's spellchecker does for a platform and a choice. `preferred` is the system's
 * languages (app.getPreferredSystemLanguages()), `available` the checker's
 * (session.availableSpellCheckerLanguages); with none in common, English (US).
 */
export function spellcheckPlan(
  platform: NodeJS.Platform,
  choice: SpellcheckChoice,
  preferred: readonly string[],
  available: readonly string[],
): SpellcheckPlan {
  if (choice === 'off') return { enabled: false, languages: null, download: false };
  if (platform === 'darwin') return { enabled: true, languages: null, download: false };
  if (choice !== 'download') return { enabled: false, languages: null, download: false };
  const known = new Set(available);
  const matched = preferred.flatMap((p) => (known.has(p) ? [p] : known.has(p.split('-')[0]!) ? [p.split('-')[0]!] : []));
  const languages = [...new Set(matched)].slice(0, 3);
  return { enabled: true, languages: languages.length ? languages : ['en-US'], download: true };
}

/** The parts of Electron's Session the plan is applied to. */
export interface SpellcheckSession {
  setSpellCheckerEnabled(enable: boolean): void;
  setSpellCheckerLanguages(languages: string[]): void;
  setSpellCheckerDictionaryDownloadURL(url: string): void;
}

/**
 * Where dictionaries are looked for when none may be downloaded: a path the app's own scheme does
 * not serve, so the downloader (if anything starts it) gets a 404 from inside the app and nothing
 * leaves the computer.
 */
export const NO_DICTIONARY_DOWNLOADS = 'app://renderer/no-dictionaries/';

/**
 * Where Chromium downloads its Hunspell dictionaries from (Electron's default): set again when the
 * person chooses the download, since the app points the downloader inside itself at every start
 * until it knows the choice (and after a choice of 'system' or 'off').
 */
export const CHROMIUM_DICTIONARIES = 'https://redirector.gvt1.com/edgedl/chrome/dict/';

/** Apply a plan to the session (macOS ignores languages and the download URL: its OS does the checking). */
export function applySpellcheck(session: SpellcheckSession, plan: SpellcheckPlan, platform: NodeJS.Platform): void {
  if (platform !== 'darwin') {
    session.setSpellCheckerDictionaryDownloadURL(plan.download ? CHROMIUM_DICTIONARIES : NO_DICTIONARY_DOWNLOADS);
    session.setSpellCheckerLanguages(plan.languages ?? []);
  }
  session.setSpellCheckerEnabled(plan.enabled);
}
