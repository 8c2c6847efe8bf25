// Fakes shaped exactly like the parts of Electron's documented API the app
// uses to run its core process, so main's and the core's wiring are tested
// without Electron: utilityProcess.fork takes a file path and returns an
// EventEmitter with postMessage(message, transfer) and kill(); the child reads
// process.parentPort, whose 'message' event carries { data, ports };
// MessageChannelMain's ports deliver { data } events, and only after start().
// Also `app` for the start-up order (setPath, the single-instance lock) and a
// session for the window's hardening (permissions, webRequest headers).
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export class FakeMessagePortMain extends EventEmitter {
  other!: FakeMessagePortMain;
  private started = false;
  private closed = false;
  private readonly queue: unknown[] = [];

  postMessage(message: unknown): void {
    if (this.closed) return;
    // Structured clone, as Electron's ports do: a proxy or a function throws here.
    const data = structuredClone(message);
    queueMicrotask(() => this.other.deliver(data));
  }
  private deliver(data: unknown): void {
    if (this.closed) return;
    if (this.started) this.emit('message', { data });
    else this.queue.push(data);
  }
  start(): void {
    this.started = true;
    for (const data of this.queue.splice(0)) this.emit('message', { data });
  }
  close(): void {
    this.closed = true;
  }
  get isStarted(): boolean {
    return this.started;
  }
}

export class FakeMessageChannelMain {
  readonly port1 = new FakeMessagePortMain();
  readonly port2 = new FakeMessagePortMain();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}

/** What the child sees as process.parentPort. */
export class FakeParentPort extends EventEmitter {}

export class FakeUtilityProcess extends EventEmitter {
  readonly parentPort = new FakeParentPort();
  pid: number | undefined = 4242;
  killed = false;
  postMessage(message: unknown, transfer: FakeMessagePortMain[] = []): void {
    if (transfer.some((p) => !(p instanceof FakeMessagePortMain))) throw new TypeError('transfer must hold MessagePortMain objects');
    const data = structuredClone(message);
    queueMicrotask(() => this.parentPort.emit('message', { data, ports: transfer }));
  }
  kill(): boolean {
    if (this.killed) return false;
    this.killed = true;
    this.pid = undefined;
    queueMicrotask(() => this.emit('exit', 15));
    return true;
  }
  /** The child dies on its own (a crash). */
  crash(code = 139): void {
    this.pid = undefined;
    this.emit('exit', code);
  }
}

export interface ForkCall {
  modulePath: string;
  args: string[];
  options: Record<string, unknown>;
  child: FakeUtilityProcess;
}

/** utilityProcess: fork() checks its path as Electron would need it, and hands the child to `onChild`. */
export function fakeUtilityProcess(onChild: (child: FakeUtilityProcess) => void): {
  fork: (modulePath: string, args?: string[], options?: object) => FakeUtilityProcess;
  calls: ForkCall[];
} {
  const calls: ForkCall[] = [];
  return {
    calls,
    fork(modulePath: string, args: string[] = [], options: object = {}) {
      if (typeof modulePath !== 'string' || !isAbsolute(modulePath)) throw new TypeError('utilityProcess.fork needs an absolute file path');
      if (!existsSync(modulePath)) throw new Error(`no such module: ${modulePath}`);
      const child = new FakeUtilityProcess();
      calls.push({ modulePath, args, options: options as Record<string, unknown>, child });
      onChild(child);
      return child;
    },
  };
}

/**
 * Electron's `app`, as far as start-up uses it, recording every call in order.
 * Like Electron: getPath('userData') is <appData>/<name> until setPath moves it;
 * setPath throws for a folder that does not exist (the API docs say it may);
 * and the single-instance lock is per user-data folder (Chromium's
 * ProcessSingleton on DIR_USER_DATA): `locks` holds the folders whose lock a
 * running instance has, shared between fakes to model several instances.
 */
export class FakeApp {
  readonly calls: string[] = [];
  readonly isPackaged: boolean;
  private readonly name: string;
  private readonly paths: Record<string, string>;
  private readonly locks: Set<string>;

  constructor(opts: { appData: string; name?: string; isPackaged?: boolean; locks?: Set<string> }) {
    this.isPackaged = opts.isPackaged ?? true;
    this.name = opts.name ?? 'Outreach Workbench';
    this.paths = { appData: opts.appData, userData: join(opts.appData, this.name) };
    this.locks = opts.locks ?? new Set();
  }
  getName(): string {
    this.calls.push('getName');
    return this.name;
  }
  getPath(name: 'appData' | 'userData'): string {
    this.calls.push(`getPath:${name}`);
    const path = this.paths[name];
    if (path === undefined) throw new Error(`Failed to get '${name}' path`);
    return path;
  }
  setPath(name: 'userData', path: string): void {
    this.calls.push(`setPath:${name}`);
    if (!isAbsolute(path)) throw new Error(`Path must be absolute: ${path}`);
    if (!existsSync(path)) throw new Error(`Failed to set path: ${path} does not exist`);
    this.paths[name] = path;
  }
  requestSingleInstanceLock(): boolean {
    this.calls.push('requestSingleInstanceLock');
    const folder = this.paths.userData!;
    if (this.locks.has(folder)) return false;
    this.locks.add(folder);
    return true;
  }
  quit(): void {
    this.calls.push('quit');
  }
  exit(exitCode = 0): void {
    this.calls.push(`exit:${exitCode}`);
  }
}

type FakeHeaders = Record<string, string[]>;
type HeadersListener = (details: { url: string; responseHeaders?: FakeHeaders }, callback: (response: { responseHeaders?: FakeHeaders }) => void) => void;

/** Whether a URL matches a webRequest filter pattern of the form scheme://host[:port]/path* (the only form the app uses). */
function matchesUrlPattern(url: string, pattern: string): boolean {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`).test(url);
}

/**
 * A session: permission handlers, and webRequest.onHeadersReceived (one
 * listener, as Electron keeps; a later call replaces it) with its filter. `respond`
 * plays a response through it: headers as the listener hands them back, or
 * unchanged when the filter leaves the URL out or the listener gives none.
 */
export class FakeSession {
  permissionRequest: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | null = null;
  permissionCheck: (() => boolean) | null = null;
  /** The spellchecker, as Electron's Session keeps it: enabled, its languages, where dictionaries come from, the words added. */
  spellCheckerEnabled = true;
  spellCheckerLanguages: string[] = ['en-US'];
  dictionaryDownloadURL = 'https://redirector.gvt1.com/edgedl/chrome/dict/';
  readonly addedWords: string[] = [];
  readonly availableSpellCheckerLanguages: string[] = ['de', 'en-GB', 'en-US', 'fr-FR'];
  setSpellCheckerEnabled(enable: boolean): void {
    this.spellCheckerEnabled = enable;
  }
  setSpellCheckerLanguages(languages: string[]): void {
    const unknown = languages.filter((l) => !this.availableSpellCheckerLanguages.includes(l));
    if (unknown.length) throw new Error(`Invalid language code provided: "${unknown[0]}" is not a valid language code`);
    this.spellCheckerLanguages = [...languages];
  }
  setSpellCheckerDictionaryDownloadURL(url: string): void {
    this.dictionaryDownloadURL = url;
  }
  addWordToSpellCheckerDictionary(word: string): boolean {
    this.addedWords.push(word);
    return true;
  }
  private headers: { filter: { urls: string[] }; listener: HeadersListener } | null = null;

  setPermissionRequestHandler(handler: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: () => boolean): void {
    this.permissionCheck = handler;
  }
  readonly webRequest = {
    onHeadersReceived: (filter: { urls: string[] }, listener: HeadersListener): void => {
      this.headers = { filter, listener };
    },
  };
  get headersFilter(): { urls: string[] } | null {
    return this.headers?.filter ?? null;
  }
  respond(url: string, responseHeaders: FakeHeaders): FakeHeaders {
    const h = this.headers;
    if (!h || !h.filter.urls.some((p) => matchesUrlPattern(url, p))) return responseHeaders;
    let out: FakeHeaders | undefined;
    let called = 0;
    h.listener({ url, responseHeaders }, (r) => {
      called++;
      out = r.responseHeaders;
    });
    if (called !== 1) throw new Error(`onHeadersReceived's callback must be called exactly once (was ${called})`);
    return out ?? responseHeaders;
  }
}

/**
 * Electron's `app` from 'ready' to quit, as lifecycle.ts uses it, recording into
 * the same call list. Like Electron: whenReady() resolves once the app is ready
 * (at once unless `ready: false`, then on becomeReady()); quit() emits
 * 'before-quit' first, and a listener's preventDefault() stops the quit; exit()
 * ends at once and emits no 'before-quit'.
 */
export class FakeRunningApp extends FakeApp {
  private readonly events = new EventEmitter();
  private markReady!: () => void;
  private readonly readyPromise = new Promise<void>((r) => (this.markReady = r));

  constructor(opts: { appData: string; name?: string; isPackaged?: boolean; locks?: Set<string>; ready?: boolean }) {
    super(opts);
    if (opts.ready ?? true) this.markReady();
  }
  whenReady(): Promise<void> {
    this.calls.push('whenReady');
    return this.readyPromise;
  }
  becomeReady(): void {
    this.markReady();
  }
  on(event: string, listener: (...args: never[]) => void): this {
    this.events.on(event, listener as (...args: unknown[]) => void);
    return this;
  }
  /** Emit 'before-quit' as quit() does; true when a listener prevented the quit. */
  beforeQuit(): boolean {
    let prevented = false;
    this.events.emit('before-quit', { preventDefault: () => void (prevented = true) });
    return prevented;
  }
  /** Another instance was started: Electron emits 'second-instance' in this one. */
  secondInstance(argv: string[] = []): void {
    this.events.emit('second-instance', { preventDefault() {} }, argv, process.cwd(), {});
  }
  /**
   * A login request reaches main (app 'login': event, webContents, authenticationResponseDetails,
   * authInfo, callback), as a utility process's net.fetch 407 does with respondToAuthRequestsFromMainProcess.
   * Resolves with what the callback was given (undefined: the default, which cancels) and whether the default was prevented.
   */
  login(
    authInfo: { isProxy: boolean; scheme: string; host: string; port: number; realm: string },
    firstAuthAttempt = true,
  ): Promise<{ prevented: boolean; answer: (string | undefined)[] | undefined }> {
    return new Promise((resolve) => {
      let prevented = false;
      this.events.emit(
        'login',
        { preventDefault: () => void (prevented = true) },
        null,
        { url: 'https://api.trakkr.ai/get-brands', pid: 4242, isRequestForNavigation: false, firstAuthAttempt, responseHeaders: {} },
        authInfo,
        (...answer: (string | undefined)[]) => resolve({ prevented, answer }),
      );
      // Nobody answered and nobody prevented the default: Electron cancels the request.
      queueMicrotask(() => {
        if (!prevented) resolve({ prevented, answer: undefined });
      });
    });
  }
  /** The last window closed. */
  allWindowsClosed(): void {
    this.events.emit('window-all-closed');
  }
  /** macOS: the Dock icon was clicked (or the app launched again) while it runs; Electron emits 'activate' (event, hasVisibleWindows). */
  activate(hasVisibleWindows = false): void {
    this.events.emit('activate', { preventDefault() {} }, hasVisibleWindows);
  }
  override quit(): void {
    super.quit();
    if (!this.beforeQuit()) this.calls.push('quit:proceeds');
  }
  /** The exit codes asked for, in order. */
  get exits(): number[] {
    return this.calls.filter((c) => c.startsWith('exit:')).map((c) => Number(c.slice(5)));
  }
}

export interface FakeMessageBoxOptions {
  type: string;
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: boolean;
}

/** Electron's `dialog`: error boxes recorded; a message box answers with the button `press` picks (default: its cancelId). */
export class FakeDialog {
  readonly errorBoxes: { title: string; content: string }[] = [];
  readonly messageBoxes: FakeMessageBoxOptions[] = [];
  press: (options: FakeMessageBoxOptions) => number = (o) => o.cancelId;

  /** Answer message boxes with the button whose label matches. */
  pressButton(label: RegExp): void {
    this.press = (o) => {
      const i = o.buttons.findIndex((b) => label.test(b));
      if (i < 0) throw new Error(`no button ${label} in ${o.buttons.join(', ')}`);
      return i;
    };
  }
  showErrorBox(title: string, content: string): void {
    this.errorBoxes.push({ title, content });
  }
  async showMessageBox(options: FakeMessageBoxOptions): Promise<{ response: number; checkboxChecked: boolean }> {
    this.messageBoxes.push(options);
    return { response: this.press(options), checkboxChecked: false };
  }
}

/** Electron's `protocol` after ready: one handler per scheme (handling a scheme twice throws, as Electron does). */
export class FakeProtocol {
  readonly handlers = new Map<string, (request: Request) => Promise<Response>>();
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    if (this.handlers.has(scheme)) throw new Error(`The scheme "${scheme}" is already handled`);
    this.handlers.set(scheme, handler);
  }
}

/**
 * A webContents as the window's wiring uses it: an EventEmitter with reload() (counted) and the
 * events Electron emits, with Electron's argument lists: 'render-process-gone' (event, details
 * { reason, exitCode }), 'did-fail-load' (event, errorCode, errorDescription, validatedURL,
 * isMainFrame), 'context-menu' (event, params).
 */
export class FakeWebContents extends EventEmitter {
  reloads = 0;
  readonly replaced: string[] = [];
  readonly session = new FakeSession();
  reload(): void {
    this.reloads++;
  }
  replaceMisspelling(word: string): void {
    this.replaced.push(word);
  }
  gone(reason: string, exitCode = 0): void {
    this.emit('render-process-gone', { preventDefault() {} }, { reason, exitCode });
  }
  failLoad(errorCode: number, errorDescription: string, validatedURL = 'app://renderer/index.html', isMainFrame = true): void {
    this.emit('did-fail-load', { preventDefault() {} }, errorCode, errorDescription, validatedURL, isMainFrame);
  }
  /** A right-click: Electron's ContextMenuParams, the parts the app reads, with a plain field's defaults. */
  rightClick(params: Partial<{ isEditable: boolean; selectionText: string; misspelledWord: string; dictionarySuggestions: string[] }> = {}): void {
    this.emit(
      'context-menu',
      { preventDefault() {} },
      {
        isEditable: true,
        selectionText: '',
        misspelledWord: '',
        dictionarySuggestions: [],
        editFlags: { canUndo: false, canRedo: false, canCut: true, canCopy: true, canPaste: true, canDelete: true, canSelectAll: true, canEditRichly: false },
        ...params,
      },
    );
  }
}

/**
 * A BrowserWindow as far as main uses it: focus, restore, show, its title (Electron emits
 * 'page-title-updated' (event, title, explicitSet) on the window; preventDefault keeps the title it
 * has), and its webContents' events.
 */
export class FakeBrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  minimized = false;
  destroyed = false;
  focused = 0;
  shown = 0;
  title = '';
  show(): void {
    this.shown++;
  }
  setTitle(title: string): void {
    this.title = title;
  }
  /** The page set its <title>: the window's title follows unless a listener prevents it. */
  pageTitle(title: string): void {
    let prevented = false;
    this.emit('page-title-updated', { preventDefault: () => void (prevented = true) }, title, true);
    if (!prevented) this.title = title;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  focus(): void {
    this.focused++;
  }
  /** The page finished loading. */
  finishLoad(): void {
    this.webContents.emit('did-finish-load');
  }
}

/** powerMonitor: 'shutdown' (macOS, Linux) with an event whose preventDefault() delays the shutdown. */
export class FakePowerMonitor extends EventEmitter {
  /** The system is shutting down: true when a listener asked to delay it. */
  shutdown(): boolean {
    let delayed = false;
    this.emit('shutdown', { preventDefault: () => void (delayed = true) });
    return delayed;
  }
}
