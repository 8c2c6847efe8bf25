// An app service on a folder of its own, as the core process makes one, for
// tests that go through the contract: its platform fake, its keychain, the
// contract to call, and what to close. Each test opens its own.
import type { Keychain } from '../../electron/core/app/keys';
import { AppService, type AppServiceOptions } from '../../electron/core/app/service';
import { caller, type Call } from './call';
import { FakeKeychain, FakePlatform } from './fake-platform';
import { tempDir } from './tmp';

export interface TestApp {
  s: AppService;
  platform: FakePlatform;
  call: Call;
  dir: string;
  /** Close the service and remove its folder. */
  close(): Promise<void>;
}

/** An app on `dir` (a new folder unless given), with a stored key unless a keychain is given; options pass through. */
export async function openApp(
  o: { key?: string; keychain?: Keychain; dir?: { dir: string; cleanup(): void } } & Partial<
    Omit<AppServiceOptions, 'userDataDir' | 'platform' | 'keychain'>
  > = {},
): Promise<TestApp> {
  const { key, keychain, dir: given, ...rest } = o;
  const dir = given ?? tempDir();
  const platform = new FakePlatform();
  const s = await AppService.create({
    userDataDir: dir.dir,
    platform,
    keychain: keychain ?? Object.assign(new FakeKeychain(), { value: key ?? null }),
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
    integrityCheckDelayMs: 60_000,
    ...rest,
  });
  return {
    s,
    platform,
    call: caller(s),
    dir: dir.dir,
    close: async () => {
      await s.close();
      dir.cleanup();
    },
  };
}
