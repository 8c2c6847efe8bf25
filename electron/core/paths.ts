// Where the app keeps its files. The desktop app and the CLI share one cache
// file: the same folder Electron calls userData for this product name.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRODUCT_NAME = 'Outreach Workbench';

/** The user-data folder (what Electron's app.getPath('userData') gives for this app). */
export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME ?? homedir();
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  return join(appData, PRODUCT_NAME);
}

export function defaultCachePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.WORKBENCH_DB ?? join(userDataDir(env), 'workbench.db');
}
