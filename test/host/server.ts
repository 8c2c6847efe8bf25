// The UI test host: Electron cannot run on the machines that test this
// project, so this plays main's part for a real browser. Like the app, it
// runs the core in its own process behind the same message protocol
// (shared/core-link.ts, structured clone included) and serves the built
// renderer through the same resolution function as the app:// scheme, with
// the same Content-Security-Policy (plus connect-src 'self' for the shim,
// which stands in for the preload). It exists only here, never in the app build.
//   npm run ui:host -- [--port P] [--demo] [--data DIR] [--base-url URL]
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ContractResults, EventName, EventPayloads, MethodArgs, MethodName } from '../../shared/contract';
import { EVENT_NAMES, METHOD_NAMES } from '../../shared/contract-names';
import { CoreSupervisor } from '../../shared/core-link';
import { APP_ORIGIN, resolveAppRequest } from '../../electron/main/app-protocol';
import { hostHandlers } from '../../electron/main/host-ops';
import { contentSecurityPolicy } from '../../electron/main/security';
import { forkNodeCore } from './core-process';
import { plainDataProblem } from './plain-data';

export interface HostOptions {
  port?: number;
  demo?: boolean;
  dataDir?: string;
  rendererDir?: string;
  /** API base URL to put in settings (tests point it at their simulator). */
  baseUrl?: string;
  demoOpportunities?: number;
  /** The core's today (YYYY-MM-DD), to move the clock for follow-ups and snoozes; default: the real day. */
  today?: string;
  /** The state of the core's keychain (in memory): 'locked' or 'unavailable' as a system keychain can be; default 'available'. */
  keychain?: 'available' | 'locked' | 'unavailable';
}

export interface Host {
  url: string;
  token: string;
  dataDir: string;
  /** A contract call through the same path the page uses (the core process), unwrapped. */
  call<M extends MethodName>(method: M, ...args: MethodArgs<M>): Promise<ContractResults[M]>;
  clipboard(): string;
  opened(): string[];
  setSaveAs(path: string | null): void;
  /** The file the fake open dialog answers with (null, the default: the user cancels). */
  setOpenFile(path: string | null): void;
  /**
   * What prints the window to PDF (main's webContents.printToPDF in the app): a browser test gives its
   * page's own, Chromium's print-to-PDF (playwright's page.pdf, CDP Page.printToPDF). Without one it is refused.
   */
  setPrinter(print: (() => Promise<Uint8Array>) | null): void;
  /** Push an event to the page as main would (e.g. 'app:command' from a menu item). */
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
  /** The core process, for tests that stop it. */
  core: CoreSupervisor;
  /** SIGKILL the running core process, as a crash would. */
  killCore(): void;
  close(): Promise<void>;
}

const COOKIE = 'workbench_host';

/** The shim with the contract's method and event names written in: it offers those and nothing else. */
export function shimSource(): string {
  const placeholder = '/* contract names */ { methods: [], events: [] }';
  const source = readFileSync(new URL('./shim.js', import.meta.url), 'utf8');
  if (!source.includes(placeholder)) throw new Error('shim.js has lost its placeholder for the contract names.');
  return source.replace(placeholder, () => JSON.stringify({ methods: METHOD_NAMES, events: EVENT_NAMES }));
}

/**
 * Whether a Content-Type header names exactly the media type application/json
 * (any case, as media types are), with or without parameters such as
 * `; charset=utf-8`. `application/jsonx`, `application/json-patch+json`,
 * `text/json` and a missing header are not.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type = '', ...params] = header.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  // Each parameter is name=value (RFC 9110, 8.3.1); a bare trailing ';' is tolerated.
  return params.every(
    (p, i) => (p.trim() === '' && i === params.length - 1) || /^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=("[^"]*"|[!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*$/.test(p),
  );
}

export async function startHost(opts: HostOptions = {}): Promise<Host> {
  const requestedDir = resolve(opts.rendererDir ?? 'out/renderer');
  if (!existsSync(join(requestedDir, 'index.html'))) throw new Error(`No built renderer in ${requestedDir}: run \`npx electron-vite build\` first.`);
  // Symlinks resolved once, here: resolveAppRequest answers with real paths, so index.html (the page that gets the
  // shim) is told apart by its real path too, also when the folder or the file is reached through a symlink.
  const rendererDir = realpathSync(requestedDir);
  const indexHtml = realpathSync(join(rendererDir, 'index.html'));
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'workbench-host-'));
  const token = randomBytes(16).toString('hex');
  const streams = new Set<ServerResponse>();
  let clipboard = '';
  const opened: string[] = [];
  let saveAs: string | null = join(dataDir, 'export.csv');
  let openFile: string | null = null;
  let printer: (() => Promise<Uint8Array>) | null = null;
  let launched = false;

  let corePid: number | undefined;
  const core = new CoreSupervisor({
    spawn: () =>
      forkNodeCore(
        {
          userDataDir: dataDir,
          appName: 'Outreach Workbench',
          appVersion: '0.1.0',
          platformName: 'linux',
          demo: !!opts.demo,
          demoOpportunities: opts.demoOpportunities,
          baseUrl: opts.baseUrl,
          today: opts.today,
        },
        (pid) => (corePid = pid),
        opts.keychain,
      ),
    host: hostHandlers({
      writeClipboard: (t) => void (clipboard = t),
      openExternal: async (u) => void opened.push(u),
      showItemInFolder: (p) => void opened.push(`folder:${p}`),
      showSaveDialog: async (name) => (saveAs === null ? null : saveAs.endsWith('/') ? join(saveAs, name) : saveAs),
      showOpenDialog: async () => openFile,
      printToPdf: async () => {
        if (!printer) throw new Error('There is no window to print here (the test host was given no page).');
        return printer();
      },
    }),
    onEvent: broadcast,
    onCrash: (state, message) => broadcast('core:status', { state, message }),
  });
  function broadcast(event: string, payload: unknown): void {
    for (const s of streams) s.write(`event: message\ndata: ${JSON.stringify({ event, payload })}\n\n`);
  }
  const failure = await core.ready();
  if (failure) {
    await core.shutdown(1_000);
    throw new Error(`The core could not start: ${failure.message}`);
  }

  const shim = shimSource();
  const policy = contentSecurityPolicy({ connectSelf: true });

  const sameToken = (given: string | undefined | null): boolean => {
    if (!given || given.length !== token.length) return false;
    return timingSafeEqual(Buffer.from(given), Buffer.from(token));
  };
  const cookieToken = (req: IncomingMessage): string | undefined =>
    (req.headers.cookie ?? '')
      .split(';')
      .map((c) => c.trim().split('='))
      .find(([k]) => k === COOKIE)?.[1];

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((res, rej) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res(Buffer.concat(chunks).toString('utf8')));
      req.on('error', rej);
    });

  let port = 0;
  const server = createServer((req, res) => {
    void (async () => {
      // No DNS rebinding: only this host's own name and port, and no other page's origin.
      const hostOk = req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;
      const origin = req.headers.origin;
      const originOk = origin === undefined || origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
      if (!hostOk || !originOk) return end(res, 403, 'text/plain', 'Refused: wrong Host or Origin.');
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      // The token comes first: in the URL once (it then becomes a same-site cookie), or as a header.
      const fromUrl = sameToken(url.searchParams.get('token'));
      const authed = fromUrl || sameToken(cookieToken(req)) || sameToken(req.headers['x-host-token'] as string | undefined);
      if (!authed) return end(res, 403, 'text/plain', 'This host needs its access token in the URL.');
      const extra: Record<string, string> = fromUrl ? { 'Set-Cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/` } : {};

      if (url.pathname === '/__host/shim.js') return end(res, 200, 'text/javascript', shim, extra);
      if (url.pathname.startsWith('/__host/')) {
        if (url.pathname === '/__host/events') {
          res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
          res.write(': connected\n\n');
          streams.add(res);
          req.on('close', () => streams.delete(res));
          return;
        }
        if (url.pathname === '/__host/call' && req.method === 'POST') {
          if (!isJsonContentType(req.headers['content-type'])) return end(res, 415, 'text/plain', 'Calls are application/json.');
          const body = JSON.parse(await readBody(req)) as { method: string; args: unknown };
          const result = await core.call(body.method, body.args);
          // The page gets JSON; the app's window gets a structured clone. Only values both carry alike pass.
          const problem = plainDataProblem(result);
          if (problem) return end(res, 500, 'text/plain', `${body.method}: ${problem}; the app's window would receive something else.`);
          return end(res, 200, 'application/json', JSON.stringify(result));
        }
        return end(res, 404, 'text/plain', 'not found');
      }
      // The built renderer, resolved exactly as the app's app:// handler resolves it.
      const found = resolveAppRequest(`${APP_ORIGIN}${url.pathname}`, rendererDir);
      if (!found.ok) return end(res, 404, 'text/plain', 'not found');
      if (found.file === indexHtml) {
        // As the app does once its window has loaded: sync in the background if a key is stored.
        if (!launched) {
          launched = true;
          setTimeout(() => core.launch(), 300);
        }
        const html = readFileSync(found.file, 'utf8').replace('<head>', '<head>\n    <script src="/__host/shim.js"></script>');
        return end(res, 200, found.contentType, html, extra);
      }
      return end(res, 200, found.contentType, readFileSync(found.file), extra);
    })().catch((e: unknown) => end(res, 500, 'text/plain', String(e)));
  });

  function end(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
    if (res.headersSent) return void res.end();
    res.writeHead(status, {
      'Content-Type': type,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': policy,
      ...extra,
    });
    res.end(body);
  }

  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    dataDir,
    core,
    killCore: () => void (corePid && process.kill(corePid, 'SIGKILL')),
    call: async (method, ...args) => {
      const r = await core.call(method, args);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as never;
    },
    clipboard: () => clipboard,
    opened: () => [...opened],
    setSaveAs: (p) => void (saveAs = p),
    setOpenFile: (p) => void (openFile = p),
    setPrinter: (p) => void (printer = p),
    emit: (event, payload) => broadcast(event, payload),
    close: async () => {
      for (const s of streams) s.end();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await core.shutdown(5_000);
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
