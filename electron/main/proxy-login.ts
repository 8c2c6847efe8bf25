// An authenticating proxy (HTTP 407) is answered: the core process is forked with
// respondToAuthRequestsFromMainProcess, so its net.fetch login requests reach main's app 'login'
// event, which asks the person for the proxy's user name and password (once a run per proxy; again
// if the proxy refuses them, at most three times) and answers. A login asked for by anything but a
// proxy (a server's 401 with a Basic challenge) is never answered: the API key is the only
// credential the app sends to a server. The question is a small window with a plain form, no
// JavaScript at all: its submission is a navigation main reads and stops (it never loads).
import type { BrowserWindowConstructorOptions } from 'electron';
import type { LifecycleLog } from './lifecycle';

/** The parts of Electron's AuthInfo the answer reads. */
export interface AuthInfoLike {
  isProxy: boolean;
  scheme: string;
  host: string;
  port: number;
  realm: string;
}

export interface ProxyQuestion {
  host: string;
  port: number;
  realm: string;
  /** The proxy refused the last answer. */
  retry: boolean;
}

export type Credentials = { username: string; password: string };

/** After this many refusals of what the person typed, the proxy is not asked about again this run. */
export const MAX_PROXY_ATTEMPTS = 3;

/**
 * The listener for app.on('login', …): Electron's arguments (event, webContents, details, authInfo,
 * callback). `ask` shows the question; null when the person cancels.
 */
export function proxyLoginHandler(deps: { ask(q: ProxyQuestion): Promise<Credentials | null>; log: Pick<LifecycleLog, 'warn'> }) {
  const known = new Map<string, Credentials>();
  const refusals = new Map<string, number>();
  const givenUp = new Set<string>();
  const asking = new Map<string, Promise<Credentials | null>>();

  return (
    event: { preventDefault(): void },
    _webContents: unknown,
    details: { url: string; firstAuthAttempt?: boolean },
    authInfo: AuthInfoLike,
    callback: (username?: string, password?: string) => void,
  ): void => {
    if (!authInfo.isProxy) {
      deps.log.warn(`a server asked for a ${authInfo.scheme} login (${authInfo.host}); not answered: the app sends only the API key`);
      return; // the default cancels the request
    }
    event.preventDefault();
    const key = `${authInfo.host}:${authInfo.port}`;
    const retry = details.firstAuthAttempt === false;
    if (retry && known.has(key)) {
      known.delete(key);
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
    }
    if ((refusals.get(key) ?? 0) >= MAX_PROXY_ATTEMPTS) givenUp.add(key);
    if (givenUp.has(key)) return callback();
    const remembered = known.get(key);
    if (remembered) return callback(remembered.username, remembered.password);
    let pending = asking.get(key);
    if (!pending) {
      pending = deps.ask({ host: authInfo.host, port: authInfo.port, realm: authInfo.realm, retry: (refusals.get(key) ?? 0) > 0 }).catch(() => null);
      asking.set(key, pending);
      void pending.then(() => asking.delete(key));
    }
    void pending.then((answer) => {
      if (!answer) {
        givenUp.add(key);
        deps.log.warn(`the proxy ${key} asked for a login and none was given; requests through it fail until the app restarts`);
        return callback();
      }
      known.set(key, answer);
      callback(answer.username, answer.password);
    });
  };
}

/** Where the form sends its answer: a name that never resolves, read by main before it could load. */
const SUBMIT = 'https://proxy-login.invalid/answer';
const CANCEL = 'https://proxy-login.invalid/cancel';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The question as a page: the proxy's name and realm as text (escaped), a form, no script. */
export function proxyLoginPage(q: ProxyQuestion): string {
  const realm = q.realm ? ` (“${escapeHtml(q.realm)}”)` : '';
  const retry = q.retry ? '<p class="retry">The proxy did not accept that user name and password. Try again.</p>' : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; form-action https://proxy-login.invalid">
<title>Proxy login</title>
<style>body{font:14px system-ui,sans-serif;margin:20px;color:#222;background:#fff}label{display:block;margin-top:10px}input{width:100%;box-sizing:border-box;padding:6px}.retry{color:#b00020}.buttons{margin-top:16px;text-align:right}button{margin-left:8px;padding:6px 14px}@media (prefers-color-scheme:dark){body{background:#1b1d21;color:#eee}}</style>
</head><body>
<h1 style="font-size:16px">The network’s proxy asks for a login</h1>
<p>Outreach Workbench reaches the internet through the proxy <strong>${escapeHtml(q.host)}:${q.port}</strong>${realm}. Its user name and password are kept in memory until the app quits, never on disk.</p>${retry}
<form method="get" action="${SUBMIT}">
<label>User name <input name="u" autocomplete="username" autofocus required></label>
<label>Password <input name="p" type="password" autocomplete="current-password"></label>
<div class="buttons"><button type="submit" formaction="${CANCEL}" formnovalidate>Cancel</button><button type="submit">Log in</button></div>
</form></body></html>`;
}

/** What a navigation of the question's window means: the answer, a cancel, or null (not the form's). */
export function readProxyLoginSubmission(url: string): Credentials | 'cancel' | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (`${u.origin}${u.pathname}` === CANCEL) return 'cancel';
  if (`${u.origin}${u.pathname}` !== SUBMIT) return null;
  return { username: u.searchParams.get('u') ?? '', password: u.searchParams.get('p') ?? '' };
}

/** The window's options: a small modal sheet, no JavaScript, no developer tools, no preload. */
export function proxyLoginWindowOptions(parent: unknown): BrowserWindowConstructorOptions {
  return {
    width: 440,
    height: 330,
    resizable: false,
    minimizable: false,
    maximizable: false,
    modal: parent !== null,
    ...(parent ? { parent: parent as BrowserWindowConstructorOptions['parent'] } : {}),
    title: 'Proxy login',
    autoHideMenuBar: true,
    webPreferences: { javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false, devTools: false, spellcheck: false },
  };
}

/** The parts of a BrowserWindow the question uses. */
export interface QuestionWindow {
  loadURL(url: string): Promise<void>;
  close(): void;
  isDestroyed(): boolean;
  on(event: 'closed', listener: () => void): unknown;
  readonly webContents: {
    on(event: 'will-navigate', listener: (e: { preventDefault(): void; url: string }) => void): unknown;
    setWindowOpenHandler(handler: () => { action: 'deny' }): void;
  };
}

/** Ask in a window made by `open` (new BrowserWindow(options)); resolves with the answer, or null for a cancel or a closed window. */
export function askInWindow(
  open: (options: BrowserWindowConstructorOptions) => QuestionWindow,
  parent: unknown,
  q: ProxyQuestion,
): Promise<Credentials | null> {
  return new Promise((resolve) => {
    const w = open(proxyLoginWindowOptions(parent));
    let settled = false;
    const settle = (answer: Credentials | null) => {
      if (settled) return;
      settled = true;
      resolve(answer);
      if (!w.isDestroyed()) w.close();
    };
    w.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    w.webContents.on('will-navigate', (e) => {
      e.preventDefault(); // the form's address is never loaded: it is only read here
      const answer = readProxyLoginSubmission(e.url);
      if (answer !== null) settle(answer === 'cancel' ? null : answer);
    });
    w.on('closed', () => settle(null));
    void w.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(proxyLoginPage(q))}`).catch(() => settle(null));
  });
}
