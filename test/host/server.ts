// The UI test host: Electron cannot run on the machines that test this
// project, so this serves the built renderer to a real browser and answers
// the same app contract over HTTP with the same handlers and the real core
// (cache file, sync, export; the simulator with --demo). A shim gives the page
// its window.workbench. It exists only here, never in the app build.
//   npm run ui:host -- [--port P] [--demo] [--data DIR]
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import type { EventName, EventPayloads } from '../../shared/contract';
import { AppService } from '../../electron/core/app/service';
import { createHandlers, dispatch } from '../../electron/core/app/handlers';
import type { Platform } from '../../electron/core/app/platform';
import type { Keychain } from '../../electron/core/app/keys';
import type { KeychainState } from '../../electron/core/secrets';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };

/** A keychain in memory (the real one is tested on its own). */
class HostKeychain implements Keychain {
  value: string | null = null;
  st: KeychainState = 'available';
  async state() {
    return this.st;
  }
  async get() {
    return this.st === 'available' ? this.value : null;
  }
  async set(k: string) {
    this.value = k;
  }
  async clear() {
    this.value = null;
  }
}

export interface HostOptions {
  port?: number;
  demo?: boolean;
  dataDir?: string;
  rendererDir?: string;
  /** API base URL to put in settings (tests point it at their simulator). */
  baseUrl?: string;
  demoOpportunities?: number;
}

export interface Host {
  url: string;
  token: string;
  dataDir: string;
  service: AppService;
  clipboard(): string;
  opened(): string[];
  setSaveAs(path: string | null): void;
  close(): Promise<void>;
}

export async function startHost(opts: HostOptions = {}): Promise<Host> {
  const rendererDir = resolve(opts.rendererDir ?? 'out/renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error(`No built renderer in ${rendererDir}: run \`npx electron-vite build\` first.`);
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'workbench-host-'));
  const token = randomBytes(16).toString('hex');
  const streams = new Set<ServerResponse>();
  let clipboard = '';
  const opened: string[] = [];
  let saveAs: string | null = join(dataDir, 'export.csv');
  let launched = false;

  const platform: Platform = {
    writeClipboard: (t) => void (clipboard = t),
    openExternal: async (u) => void opened.push(u),
    chooseSaveFile: async (name) => (saveAs === null ? null : saveAs.endsWith('/') ? join(saveAs, name) : saveAs),
    showItemInFolder: (p) => void opened.push(`folder:${p}`),
    emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
      const line = `event: message\ndata: ${JSON.stringify({ event, payload })}\n\n`;
      for (const s of streams) s.write(line);
    },
  };
  const keychain = new HostKeychain();
  const service = await AppService.create({ userDataDir: dataDir, platform, keychain, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux', demo: opts.demo, demoOpportunities: opts.demoOpportunities });
  if (opts.baseUrl) service.setSettings({ baseUrl: opts.baseUrl, requestsPerMinute: 10_000 });
  const handlers = createHandlers(service, platform);

  const shim = readFileSync(new URL('./shim.js', import.meta.url), 'utf8');

  function page(): string {
    const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
    // The app's policy allows no network from the page; the host's shim talks to this server, so 'self' is allowed here only.
    return html
      .replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*"\s*\/?>/, `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'" />`)
      .replace('<head>', `<head>\n    <script src="/__host/shim.js?token=${token}"></script>`);
  }

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((res, rej) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res(Buffer.concat(chunks).toString('utf8')));
      req.on('error', rej);
    });

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const authed = url.searchParams.get('token') === token || req.headers['x-host-token'] === token;
      if (url.pathname === '/' || url.pathname === '/index.html') {
        if (!authed) return end(res, 403, 'text/plain', 'This host needs its access token in the URL.');
        // As the app does once its window has loaded: sync in the background if a key is stored.
        if (!launched) {
          launched = true;
          setTimeout(() => void service.launch(), 300);
        }
        return end(res, 200, TYPES['.html']!, page());
      }
      if (url.pathname === '/__host/shim.js') return end(res, 200, TYPES['.js']!, shim.replace('__TOKEN__', token));
      if (url.pathname.startsWith('/__host/')) {
        if (!authed) return end(res, 403, 'application/json', '{"error":"token"}');
        if (url.pathname === '/__host/events') {
          res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
          res.write(': connected\n\n');
          streams.add(res);
          req.on('close', () => streams.delete(res));
          return;
        }
        if (url.pathname === '/__host/call' && req.method === 'POST') {
          const body = JSON.parse(await readBody(req)) as { method: string; args: unknown };
          return end(res, 200, 'application/json', JSON.stringify(await dispatch(handlers, body.method, body.args)));
        }
        if (url.pathname === '/__host/clipboard') return end(res, 200, 'application/json', JSON.stringify({ text: clipboard }));
        if (url.pathname === '/__host/opened') return end(res, 200, 'application/json', JSON.stringify(opened));
        return end(res, 404, 'text/plain', 'not found');
      }
      // Static files of the built renderer, confined to its folder.
      const file = normalize(join(rendererDir, decodeURIComponent(url.pathname)));
      if (!file.startsWith(rendererDir) || !existsSync(file)) return end(res, 404, 'text/plain', 'not found');
      return end(res, 200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
    })().catch((e: unknown) => end(res, 500, 'text/plain', String(e)));
  });

  function end(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    res.end(body);
  }

  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    dataDir,
    service,
    clipboard: () => clipboard,
    opened: () => [...opened],
    setSaveAs: (p) => void (saveAs = p),
    close: async () => {
      for (const s of streams) s.end();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await service.close();
    },
  };
}

// Run from the command line.
if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const args = process.argv.slice(2);
  const get = (f: string) => {
    const i = args.indexOf(f);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const host = await startHost({ port: Number(get('--port') ?? 0), demo: args.includes('--demo'), dataDir: get('--data'), baseUrl: get('--base-url') });
  process.stdout.write(`UI test host on ${host.url}\nData folder: ${host.dataDir}\n`);
  const stop = () => void host.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
