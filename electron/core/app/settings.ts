// Settings kept locally as a small JSON file in the user-data folder, written
// atomically (temporary file, then rename). Never holds the key.
//
// The API base URL decides where the key is sent, so it is checked on the way
// in (shared/api-origin.ts), and a change of the API's origin to anywhere but
// the default API or this computer (the simulator) must be confirmed: the
// patch carries `confirmOrigin` equal to the new origin, which the settings
// screen sends only after showing that origin to the user.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkApiBaseUrl, DEFAULT_API_ORIGIN, isLoopbackHost } from '../../../shared/api-origin';
import { settingsSchema, type Settings, type SettingsPatch } from '../../../shared/contract';
import { DEFAULT_BASE_URL } from '../../../shared/domain';
import { ServiceError } from './service-error';

export const DEFAULT_SETTINGS: Settings = { baseUrl: DEFAULT_BASE_URL, syncOnLaunch: true, requestsPerMinute: 60 };

/** The error kind of a base URL change that needs the user's confirmation. */
export const CONFIRM_ORIGIN = 'confirm-origin';

function originOf(baseUrl: string): string | null {
  const r = checkApiBaseUrl(baseUrl);
  return r.ok ? r.origin : null;
}

export class SettingsFile {
  private current: Settings;
  /** Set when settings.json held something that was not used (a hand-edited API address that is refused). */
  private readWarning: string | null = null;

  constructor(private readonly path: string) {
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
    return out;
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
    const before = originOf(this.current.baseUrl);
    if (changes.baseUrl !== undefined) {
      const check = checkApiBaseUrl(changes.baseUrl);
      if (!check.ok) throw new ServiceError('invalid-input', check.reason, 'baseUrl');
      const changed = check.origin !== before && check.origin !== DEFAULT_API_ORIGIN && !isLoopbackHost(new URL(check.origin).hostname);
      if (changed && confirmOrigin !== check.origin) {
        throw new ServiceError(CONFIRM_ORIGIN, `Your API key will be sent to ${check.origin} instead of ${before ?? DEFAULT_API_ORIGIN}. Confirm to use it.`, 'baseUrl');
      }
      changes.baseUrl = check.url;
    }
    const next = settingsSchema.parse({ ...this.current, ...changes });
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.path);
    this.current = next;
    if (changes.baseUrl !== undefined) this.readWarning = null;
    return this.get();
  }
}
