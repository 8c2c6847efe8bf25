// Settings kept locally as a small JSON file in the user-data folder, written
// atomically (temporary file, then rename). Never holds the key.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { settingsSchema, type Settings } from '../../../shared/contract';
import { DEFAULT_BASE_URL } from '../../../shared/domain';

export const DEFAULT_SETTINGS: Settings = { baseUrl: DEFAULT_BASE_URL, syncOnLaunch: true, requestsPerMinute: 60 };

export class SettingsFile {
  private current: Settings;

  constructor(private readonly path: string) {
    this.current = this.read();
  }

  private read(): Settings {
    if (!existsSync(this.path)) return { ...DEFAULT_SETTINGS };
    try {
      const parsed = settingsSchema.partial().safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      // A damaged or partly invalid file falls back to defaults field by field.
      return { ...DEFAULT_SETTINGS, ...(parsed.success ? parsed.data : {}) };
    } catch {
      return { ...DEFAULT_SETTINGS };
    }
  }

  get(): Settings {
    return { ...this.current };
  }

  set(patch: Partial<Settings>): Settings {
    const next = settingsSchema.parse({ ...this.current, ...patch });
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.path);
    this.current = next;
    return this.get();
  }
}
