// `npm run simulator -- [options]`: the API simulator on loopback.
import { parseArgs } from 'node:util';
import { DEMO_KEY, FAULT_KINDS, startSimulator, type ErrorForm, type Fault } from './server';

const HELP = `Trakkr API simulator: a local, deterministic stand-in for https://api.trakkr.ai

Usage: npm run simulator -- [options]

Options:
  --port N                 port on 127.0.0.1 (default 8787; 0 picks a free one)
  --host H                 address to listen on (default 127.0.0.1; loopback only is advised)
  --seed N                 seed for the generated data (default 1)
  --opportunities N        opportunities for the first brand (default 1200; up to 100000 and more)
  --other-opportunities N  opportunities for each other brand (default 150)
  --brands N               number of brands (default 3)
  --citations N            citation items per brand (default 300)
  --today YYYY-MM-DD       the most recent report date (default: today, UTC)
  --key KEY                accept this key too (repeatable); the demo key is always accepted
  --rate-limit N           requests per minute per key, answered with 429 past it (default 0: off)
  --latency MS             delay before every answer (default 0)
  --error-form F           error bodies for auth failures: code, text or mixed (default mixed: both in use)
  --fault JSON             a fault to inject, repeatable, e.g. '{"kind":"rate-limit","count":2,"retryAfter":3}'
                           kinds: ${FAULT_KINDS.join(', ')}
  --quiet                  do not log requests
  --help                   this text

Demo key (accepted by this simulator only):
  ${DEMO_KEY}

Admin endpoints (loopback, no key):
  GET    /__sim/state                 counters, brands, pending faults
  POST   /__sim/faults                body: a fault or a list of faults (as --fault)
  DELETE /__sim/faults                clear pending faults
  POST   /__sim/rate-limit            body: {"perMinute": N}
  POST   /__sim/mutate                body: {"brand": ID, "added": N, "changed": N, "removed": N}
  POST   /__sim/inject                body: {"brand": ID, "record": {...}}

Try:
  curl -H "Authorization: Bearer ${DEMO_KEY}" http://127.0.0.1:8787/get-brands
`;

function int(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a whole number, got "${v}"\n`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        opportunities: { type: 'string' },
        'other-opportunities': { type: 'string' },
        brands: { type: 'string' },
        citations: { type: 'string' },
        today: { type: 'string' },
        key: { type: 'string', multiple: true },
        'rate-limit': { type: 'string' },
        latency: { type: 'string' },
        'error-form': { type: 'string' },
        fault: { type: 'string', multiple: true },
        quiet: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nRun with --help for the options.\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const faults: Fault[] = [];
  for (const f of values.fault ?? []) {
    try {
      const parsed = JSON.parse(f) as Fault;
      if (!FAULT_KINDS.includes(parsed.kind)) throw new Error(`unknown kind ${String(parsed.kind)}`);
      faults.push(parsed);
    } catch (e) {
      process.stderr.write(`--fault: ${(e as Error).message}\n`);
      process.exit(2);
    }
  }
  const form = values['error-form'] ?? 'mixed';
  if (!['code', 'text', 'mixed'].includes(form)) {
    process.stderr.write('--error-form must be code, text or mixed\n');
    process.exit(2);
  }
  const sim = await startSimulator({
    port: int(values.port, 'port', 8787),
    host: values.host ?? '127.0.0.1',
    seed: int(values.seed, 'seed', 1),
    opportunities: int(values.opportunities, 'opportunities', 1200),
    otherBrandOpportunities: int(values['other-opportunities'], 'other-opportunities', 150),
    brands: Math.max(1, int(values.brands, 'brands', 3)),
    citationsPerBrand: int(values.citations, 'citations', 300),
    ...(values.today ? { today: values.today } : {}),
    keys: [DEMO_KEY, ...(values.key ?? [])],
    rateLimitPerMinute: int(values['rate-limit'], 'rate-limit', 0),
    latencyMs: int(values.latency, 'latency', 0),
    errorForm: form as ErrorForm,
    faults,
    log: values.quiet ? undefined : (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(`Trakkr API simulator listening on ${sim.url}\nDemo key: ${DEMO_KEY}\nBrands:\n`);
  for (const b of sim.brands) process.stdout.write(`  ${b.id}  ${b.name}\n`);
  const stop = () => {
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  const err = e as NodeJS.ErrnoException;
  process.stderr.write(err.code === 'EADDRINUSE' ? `That port is in use; pick another with --port.\n` : `${err.message}\n`);
  process.exit(1);
});
