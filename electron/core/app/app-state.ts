// The app's own slice of the contract, declared in shared/contract/app.ts and
// done here over the service's parts: what the app is (its name and version,
// demo or not, the cache's file and size), its whole state in one answer for
// the window's start (the key's status, online, settings, the sync, the
// brands, a recovery notice), and that notice dismissed once shown. Reads
// only, save the dismissal (a flag of the keeper, not the cache).
import type { AppInfo, AppState, ContractHandlers } from '../../../shared/contract';
import type { ServiceParts } from './service-parts';

/** What the app is, for Settings and the window's title. */
export function appInfo(p: ServiceParts): AppInfo {
  return {
    name: p.about.appName,
    version: p.about.appVersion,
    demo: p.life.demo !== null,
    cachePath: p.keeper.cache.path,
    cacheBytes: p.keeper.cache.sizeOnDisk(),
    platform: p.about.platformName,
  };
}

/** Everything the window needs to start, in one answer. */
export async function appState(p: ServiceParts): Promise<AppState> {
  const cache = p.keeper.cache;
  return {
    info: appInfo(p),
    key: await p.connection.keyStatus(),
    online: p.connection.isOnline,
    settings: p.settings.get(),
    sync: p.sync.state(),
    brands: cache.brands.list(cache.days()),
    recovery: p.keeper.recovery,
  };
}

/** The contract's app slice (shared/contract/app.ts). */
export function appHandlers(p: ServiceParts): Pick<ContractHandlers, 'app:info' | 'app:state' | 'record:dismiss-recovery'> {
  return {
    'app:info': () => appInfo(p),
    'app:state': () => appState(p),
    // The window has shown the recovery notice: it is not shown again.
    'record:dismiss-recovery': () => p.keeper.dismissRecovery(),
  };
}
