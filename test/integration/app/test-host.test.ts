// The UI test host's bridge, as the browser tests use it: the shim (the
// preload's stand-in) structured-clones every argument before anything is
// sent, so a reactive proxy or a function fails there as it would at
// Electron's IPC, with a clear error, and is never hidden by JSON encoding;
// and the host takes calls only as exactly application/json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { EVENT_NAMES, METHOD_NAMES } from '../../../shared/contract-names';
import { isJsonContentType, shimSource, startHost, type Host } from '../../host/server';
import { tempDir } from '../../support/tmp';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The shim run as the page runs it: its own global, with fetch and EventSource stand-ins that record what is sent. */
function loadShim(answer: unknown = { ok: true, value: { name: 'Outreach Workbench' } }) {
  const sent: Sent[] = [];
  const window: { workbench?: Record<string, (...args: unknown[]) => Promise<unknown>> } = {};
  runInNewContext(shimSource(), {
    window,
    structuredClone,
    fetch: async (url: string, init: { headers: Record<string, string>; body: string }) => {
      sent.push({ url, headers: init.headers, body: init.body });
      return { json: async () => answer };
    },
    EventSource: class {
      onmessage: unknown = null;
    },
  });
  return { workbench: window.workbench!, sent };
}

describe('the shim (the preload in the browser tests)', () => {
  it('offers exactly the contract: its methods and on', () => {
    const { workbench } = loadShim();
    expect(Object.keys(workbench).sort()).toEqual([...METHOD_NAMES, 'on'].sort());
    expect(Object.isFrozen(workbench)).toBe(true);
    expect(() => (workbench.on as unknown as (e: string) => void)('not:an-event')).toThrow(/No such event/);
    expect(EVENT_NAMES.length).toBeGreaterThan(0);
  });

  it('refuses a Proxy argument (a reactive $state object) with a clear error, before anything is sent', async () => {
    const { workbench, sent } = loadShim();
    const reactive = new Proxy({ value: 'press@example.com' }, {});
    await expect(workbench['dnc:add']!(reactive)).rejects.toThrow(
      /^workbench\.dnc:add: an argument is not plain data and cannot cross the bridge \(.*could not be cloned.*\)\. Pass a plain copy, e\.g\. \$state\.snapshot\(value\)\.$/,
    );
    // Deep inside an argument too; JSON would have flattened both into plain objects.
    await expect(workbench['opportunities:list']!({ filter: new Proxy({ brandId: 'b' }, {}), offset: 0, limit: 1 })).rejects.toThrow(/cannot cross the bridge/);
    await expect(workbench['dnc:add']!({ value: 'a@b.co', note: () => 'x' })).rejects.toThrow(/cannot cross the bridge/);
    expect(sent).toEqual([]);
  });

  it('sends plain data as application/json, and hands back a copy of the answer', async () => {
    const answer = { ok: true, value: { name: 'Outreach Workbench', when: '2026-01-01' } };
    const { workbench, sent } = loadShim(answer);
    const arg = { value: 'press@example.com', note: 'met at the fair' };
    const r = await workbench['dnc:add']!(arg);
    expect(sent).toEqual([{ url: '/__host/call', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ method: 'dnc:add', args: [arg] }) }]);
    expect(r).toEqual(answer);
    expect(r).not.toBe(answer);
  });
});

describe('calls must be exactly application/json', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON;charset=UTF-8', true],
    ['application/json ; charset="utf-8"', true],
    ['application/jsonx', false],
    ['application/json-patch+json', false],
    ['application/json5', false],
    ['application/json x', false],
    ['application/json;charset', false],
    ['text/json', false],
    ['text/plain', false],
    ['', false],
    [undefined, false],
  ])('%j -> %s', (header, ok) => {
    expect(isJsonContentType(header)).toBe(ok);
  });
});

describe('the running host', () => {
  const tmp = tempDir();
  let host: Host;
  let port: number;
  beforeAll(async () => {
    // The renderer folder reached through a symlink (as /var is on macOS): the page must still get its shim.
    const realDir = join(tmp.dir, 'renderer-real');
    const rendererDir = join(tmp.dir, 'renderer');
    const { mkdirSync, symlinkSync } = await import('node:fs');
    mkdirSync(realDir, { recursive: true });
    writeFileSync(join(realDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    symlinkSync(realDir, rendererDir, 'dir');
    host = await startHost({ rendererDir, dataDir: join(tmp.dir, 'data') });
    port = Number(new URL(host.url).port);
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    tmp.cleanup();
  });

  const post = (contentType: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/__host/call',
          method: 'POST',
          headers: { Host: `127.0.0.1:${port}`, 'X-Host-Token': host.token, 'Content-Type': contentType },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end('{"method":"app:info","args":[]}');
    });

  it('serves the page with the shim even when the renderer folder is a symlink', async () => {
    const page = await fetch(host.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/__host/shim.js');
  });

  it('refuses application/jsonx and text/plain with 415; answers application/json with or without a charset', async () => {
    expect(await post('application/jsonx')).toEqual({ status: 415, body: 'Calls are application/json.' });
    expect((await post('text/plain')).status).toBe(415);
    for (const type of ['application/json', 'application/json; charset=utf-8']) {
      const r = await post(type);
      expect(r.status, type).toBe(200);
      expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { name: 'Outreach Workbench' } });
    }
  });
});
