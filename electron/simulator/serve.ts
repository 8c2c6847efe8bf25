// The loopback server every simulator runs, the demo included, and its request pipeline (count,
// route, authenticate, answer) with the hook points where faults and the admin routes plug in.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError, internalError, notFound, now, RawResponse, send, type Ctx } from './http';
import { apiRoutes, authenticate } from './routes';
import { DEMO_KEY, type ServeOptions, type SimState } from './state';

/** Where the pipeline can be bent; a simulator without hooks serves the API as the spec says. */
export interface Hooks {
  /** First: answers a request before the API sees it (true when it did); not counted. */
  intercept?(ctx: Ctx): Promise<boolean>;
  /** A counted request, before routing: may delay it, or drop it (true when it did). */
  arrive?(ctx: Ctx): Promise<boolean>;
  /** Before the key is checked: may throw an error answer. */
  beforeAuth?(ctx: Ctx): void;
  /** With the request's key, before the endpoint runs: may throw an error answer. */
  admitted?(ctx: Ctx, key: string): void;
  /** The endpoint's result before it is sent: may be rewritten. */
  rewrite?(ctx: Ctx, result: unknown): unknown;
  /** May write the answer itself (true when it did). */
  deliver?(ctx: Ctx, result: unknown): boolean;
}

/** A running simulator. */
export interface Served {
  url: string;
  port: number;
  key: string;
  brands: { id: string; name: string }[];
  readonly requests: number;
  close(): Promise<void>;
}

export async function serve(state: SimState, options: ServeOptions, hooks: Hooks = {}): Promise<Served> {
  const log = options.log ?? (() => {});
  const routes = apiRoutes(state);

  async function handle(ctx: Ctx): Promise<void> {
    if (await hooks.intercept?.(ctx)) return;
    state.requests++;
    if (await hooks.arrive?.(ctx)) return;
    const route = routes[ctx.path];
    if (!route) throw notFound(`No endpoint ${ctx.path}`);
    const method = ctx.req.method ?? 'GET';
    if (!route.methods.includes(method)) {
      ctx.res.setHeader('Allow', route.methods.join(', '));
      throw new HttpError(405, { error: 'METHOD_NOT_ALLOWED', message: `${ctx.req.method} is not allowed on ${ctx.path}`, timestamp: now() });
    }
    hooks.beforeAuth?.(ctx);
    const key = authenticate(state, ctx);
    hooks.admitted?.(ctx, key);
    let result = await route.run(ctx);
    if (hooks.rewrite) result = hooks.rewrite(ctx, result);
    if (hooks.deliver?.(ctx, result)) return;
    send(ctx, 200, result);
  }

  function fail(ctx: Ctx, err: unknown): void {
    const { req, res, url } = ctx;
    if (res.headersSent || res.destroyed) return;
    if (err instanceof RawResponse) {
      res.writeHead(err.status, { 'Content-Type': err.type });
      res.end(err.text);
      log(`${req.method} ${url.pathname} ${err.status}`);
    } else if (err instanceof HttpError) {
      const body = err.status === 429 && !('timestamp' in err.body) ? err.body : { ...err.body, request_id: ctx.requestId };
      send(ctx, err.status, body);
    } else {
      send(ctx, 500, { ...internalError().body, request_id: ctx.requestId });
    }
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ctx: Ctx = { req, res, url, path: url.pathname, requestId: `req_${randomUUID().slice(0, 12)}`, log };
    res.setHeader('X-Request-Id', ctx.requestId);
    handle(ctx).catch((err: unknown) => fail(ctx, err));
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    key: [...state.keys][0] ?? DEMO_KEY,
    brands: state.brandList(),
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
