// Runs the real keytar-backed SecretStore in this process's D-Bus session and
// prints what happened as JSON. Usage: keychain-child.ts <service> <steps>
// where steps is a comma list of: state, set, get, clear, lock.
import { execFileSync } from 'node:child_process';
import { KeychainError, KeychainSecretStore } from '../../electron/core/secrets';

const [service, steps] = process.argv.slice(2) as [string, string];
const store = new KeychainSecretStore(service, 'trakkr-api-key');
const out: Record<string, unknown>[] = [];
for (const step of steps.split(',')) {
  try {
    if (step === 'state') out.push({ step, value: await store.state() });
    else if (step === 'set') out.push({ step, value: (await store.set('sk_live_' + 'T'.repeat(28) + 'abcd'), 'ok') });
    else if (step === 'get') out.push({ step, value: await store.get() });
    else if (step === 'clear') out.push({ step, value: (await store.clear(), 'ok') });
    else if (step === 'lock') {
      execFileSync('secret-tool', ['lock', '--collection=/org/freedesktop/secrets/collection/login'], { stdio: 'ignore', timeout: 5000 });
      out.push({ step, value: 'ok' });
    }
  } catch (e) {
    out.push({ step, error: e instanceof KeychainError ? e.state : String((e as Error).message) });
  }
}
process.stdout.write(JSON.stringify(out) + '\n');
