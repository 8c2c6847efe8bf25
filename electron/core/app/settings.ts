// Settings kept locally as a small JSON file in the user-data folder, written
// by the app's one writer (files/atomic-write.ts: whole or not at all). Never
// holds the key.
//
// The API base URL decides where the key is sent, so it is checked on the way
// in (shared/api-origin.ts), and a change of the API's origin to anywhere but
// the default API or this computer (the simulator) must be confirmed: the
// patch carries `confirmOrigin` equal to the new origin, which the settings
// screen sends only after showing that origin to the user.
//
// The confirmed origin is recorded beside the settings (`confirmedOrigin` in
// settings.json, never part of the contract's Settings), and the connection
// asks `originRefusal()` before it hands the key to a request: an origin that
// reached settings.json any other way (edited by hand, copied from another
// computer, written by another program) is read, but gets no key until the
// user confirms it in Settings.
import { WorkbenchError } from '../../../shared/errors';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { checkApiBaseUrl, DEFAULT_API_ORIGIN, isLoopbackHost } from '../../../shared/api-origin';
import { settingsSchema, type ContractHandlers, type Settings, type SettingsPatch } from '../../../shared/contract';
import { DEFAULT_BASE_URL } from '../../../shared/domain';
import { PIPELINE_DEFAULTS } from '../../../shared/pipeline';
import { removeStalePartials, writeFileAtomic } from '../files/atomic-write';
import { asFileError } from '../files/file-error';

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: DEFAULT_BASE_URL,
  syncOnLaunch: true,
  requestsPerMinute: 60,
  followUpAfterDays: PIPELINE_DEFAULTS.followUpAfterDays,
  noReplyAfterDays: PIPELINE_DEFAULTS.noReplyAfterDays,
  contactWindowDays: 90,
  senderName: '',
  checkForUpdates: true,
  followUpReminders: true,
  // No dictionary is downloaded unless the person chooses it (Settings); macOS uses its own.
  spellcheck: 'system',
  // Nothing is marked Won without the user unless they turn this on.
  autoMarkWon: false,
};

/** The error kind of a base URL change that needs the user's confirmation. */
export const CONFIRM_ORIGIN = 'confirm-origin';

function originOf(baseUrl: string): string | null {
  const r = checkApiBaseUrl(baseUrl);
  return r.ok ? r.origin : null;
}

/** The default API and this computer (the simulator) need no confirmation; every other origin does. */
function needsConfirmation(origin: string): boolean {
  return origin !== DEFAULT_API_ORIGIN && !isLoopbackHost(new URL(origin).hostname);
}

/** What settings.json holds: the settings, and the API origin the user confirmed through the app. */
interface OnDisk extends Settings {
  confirmedOrigin?: string;
}

export class SettingsFile {
  private current: Settings;
  /** The API origin the user confirmed through the app (settings:set with confirmOrigin), or null. */
  private confirmed: string | null = null;
  /** Set when settings.json held something that was not used (a hand-edited API address that is refused). */
  private readWarning: string | null = null;

  constructor(private readonly path: string) {
    // At start: temporary settings files of a process killed while saving them go (only the settings' own: nothing else in the folder).
    removeStalePartials(dirname(path), Date.now(), { of: basename(path) });
    this.current = this.read();
  }

  private read(): Settings {
    if (!existsSync(this.path)) return { ...DEFAULT_SETTINGS };
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return { ...DEFAULT_SETTINGS };
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ...DEFAULT_SETTINGS };
    // A damaged or partly invalid file falls back to defaults field by field.
    const out: Settings = { ...DEFAULT_SETTINGS };
    const fields = settingsSchema.shape;
    for (const name of Object.keys(fields) as (keyof Settings)[]) {
      if (!Object.hasOwn(raw, name)) continue;
      const value = (raw as Record<string, unknown>)[name];
      const parsed = fields[name].safeParse(value);
      if (parsed.success) (out as Record<keyof Settings, unknown>)[name] = parsed.data;
      else if (name === 'baseUrl') {
        // Never echo the refused value: it may carry a password.
        const r = typeof value === 'string' ? checkApiBaseUrl(value) : null;
        const why = r && !r.ok ? r.reason : 'It is not text.';
        this.readWarning = `settings.json names an API address the app refuses, so ${DEFAULT_BASE_URL} is used instead. ${why}`;
      }
    }
    const confirmed = (raw as Record<string, unknown>).confirmedOrigin;
    if (typeof confirmed === 'string') this.confirmed = originOf(confirmed) === confirmed ? confirmed : null;
    const refusal = this.refusalFor(out.baseUrl);
    if (refusal) this.readWarning = refusal;
    return out;
  }

  /** Plain words when the key must not go to `baseUrl`'s origin because the user never confirmed it; null when it may. */
  private refusalFor(baseUrl: string): string | null {
    const origin = originOf(baseUrl);
    if (origin === null) return 'The API address in the settings is not usable. Choose another in Settings.';
    if (!needsConfirmation(origin) || origin === this.confirmed) return null;
    return `Your API key was not sent to ${origin}: that API address was not confirmed in the app (it was written into settings.json some other way). Open Settings and save the address to confirm it, or choose another.`;
  }

  /**
   * Why the key must not be sent to the API address in use, or null when it
   * may: the default API, this computer, or the origin the user confirmed.
   * Asked before every request that carries the key, whatever wrote settings.json.
   */
  originRefusal(): string | null {
    return this.refusalFor(this.current.baseUrl);
  }

  get(): Settings {
    return { ...this.current };
  }

  /** Plain words about settings.json having been partly ignored, or null. */
  get warning(): string | null {
    return this.readWarning;
  }

  /**
   * Save a change. A new API origin other than the default one or this
   * computer's is refused with kind `confirm-origin` unless
   * `patch.confirmOrigin` names it: the key must not go somewhere new unseen.
   */
  set(patch: SettingsPatch): Settings {
    const { confirmOrigin, ...changes } = patch;
    let confirmed = this.confirmed;
    if (changes.baseUrl !== undefined) {
      const check = checkApiBaseUrl(changes.baseUrl);
      if (!check.ok) throw new WorkbenchError('invalid-input', check.reason, { field: 'baseUrl' });
      // The origin the key goes to now, if the user agreed to it (an unconfirmed one read from settings.json does not count).
      const current = originOf(this.current.baseUrl);
      const before = current !== null && this.refusalFor(this.current.baseUrl) === null ? current : null;
      if (!needsConfirmation(check.origin)) confirmed = null;
      else if (check.origin !== this.confirmed) {
        if (confirmOrigin !== check.origin) {
          const instead = before === null ? ', an address not confirmed yet' : ` instead of ${before}`;
          throw new WorkbenchError(CONFIRM_ORIGIN, `Your API key will be sent to ${check.origin}${instead}. Confirm to use it.`, { field: 'baseUrl' });
        }
        confirmed = check.origin;
      }
      changes.baseUrl = check.url;
    }
    const next = settingsSchema.parse({ ...this.current, ...changes });
    const onDisk: OnDisk = confirmed === null ? next : { ...next, confirmedOrigin: confirmed };
    try {
      mkdirSync(dirname(this.path), { recursive: true });
    } catch (e) {
      throw asFileError(e, this.path, 'The settings');
    }
    writeFileAtomic(this.path, JSON.stringify(onDisk, null, 2) + '\n', { what: 'The settings', mode: 0o600 });
    this.current = next;
    this.confirmed = confirmed;
    if (changes.baseUrl !== undefined) this.readWarning = null;
    return this.get();
  }
}

/** The contract's settings slice (shared/contract/settings.ts). */
export function settingsHandlers(settings: SettingsFile): Pick<ContractHandlers, 'settings:get' | 'settings:set'> {
  return {
    'settings:get': () => settings.get(),
    'settings:set': (patch) => settings.set(patch),
  };
}
