// `npm run simulator` as a newcomer uses it: --help, then curl with the printed key.
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../../electron/simulator/server';

const tsx = ['node_modules/.bin/tsx', 'electron/simulator/cli.ts'];

describe('simulator CLI', () => {
  it('--help documents every option and prints the demo key', () => {
    const r = spawnSync(tsx[0]!, [tsx[1]!, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const opt of ['--port', '--seed', '--opportunities', '--rate-limit', '--latency', '--fault', '--error-form', '--today', '--key']) {
      expect(r.stdout).toContain(opt);
    }
    expect(r.stdout).toContain(DEMO_KEY);
  });

  it('bad options exit 2 with a plain message', () => {
    const r = spawnSync(tsx[0]!, [tsx[1]!, '--port', 'abc'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--port must be a whole number');
  });

  it('serves brands with the demo key, the spec 401 without, and pages to the end', async () => {
    const child = spawn(tsx[0]!, [tsx[1]!, '--port', '0', '--quiet', '--opportunities', '250'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const brands = (await (await fetch(`${url}/get-brands`, { headers: { Authorization: `Bearer ${DEMO_KEY}` } })).json()) as { brands: { id: string }[] };
      expect(brands.brands.length).toBe(3);
      const noKey = await fetch(`${url}/get-brands`);
      expect(noKey.status).toBe(401);
      expect(await noKey.json()).toMatchObject({ error: 'Missing API key' });
      let cursor: string | null = null;
      let n = 0;
      do {
        const r = await fetch(`${url}/get-outreach?brand=${brands.brands[0]!.id}&archived=true${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
          headers: { Authorization: `Bearer ${DEMO_KEY}` },
        });
        const body = (await r.json()) as { opportunities: unknown[]; pagination: { next_cursor: string | null } };
        n += body.opportunities.length;
        cursor = body.pagination.next_cursor;
      } while (cursor);
      expect(n).toBe(250);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
