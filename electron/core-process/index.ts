// The core process's entry (an Electron utilityProcess): the engine behind a
// MessagePort, with Electron's net.fetch (system proxy, OS certificates) as its
// HTTP transport and the keychain on this side of the port, never the window's.
import { net } from 'electron';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeychainSecretStore } from '../core/secrets';
import { createLog, installCrashLogging } from '../main/log';
import { coreDeps } from './deps';
import { runCore } from './run';

// Main passes its log folder; without it (started by hand) the log goes to the system's temporary folder.
const log = createLog({ dir: process.env.WORKBENCH_LOG_DIR ?? join(tmpdir(), 'outreach-workbench-logs'), name: 'core.log' });
installCrashLogging(log);

void runCore(
  process.parentPort,
  coreDeps(
    { net },
    {
      // Main names the keychain entry: the installed app's, or its own for a run from the repository.
      keychain: new KeychainSecretStore(process.env.WORKBENCH_KEYCHAIN_SERVICE || undefined),
      exit: (code) => process.exit(code),
      log: (level, message) => log[level](message),
    },
  ),
).catch((e: unknown) => {
  log.error('the core process could not start', e);
  process.exit(1);
});
