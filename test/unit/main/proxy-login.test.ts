// An authenticating proxy (407) is answered (electron/main/proxy-login.ts): main's app 'login' event,
// with Electron's arguments, asks once per proxy, again when the proxy refuses the answer (three times
// at most), never answers a server's own login, and asks in a window without JavaScript whose form is
// read from its navigation.
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { FakeRunningApp } from '../../support/fake-electron';
import {
  askInWindow,
  MAX_PROXY_ATTEMPTS,
  proxyLoginHandler,
  proxyLoginPage,
  readProxyLoginSubmission,
  type Credentials,
  type ProxyQuestion,
  type QuestionWindow,
} from '../../../electron/main/proxy-login';

const PROXY = { isProxy: true, scheme: 'basic', host: 'proxy.corp.example', port: 3128, realm: 'Corp' };
const flush = () => new Promise((r) => setImmediate(r));

function setup(answers: (Credentials | null)[]) {
  const questions: ProxyQuestion[] = [];
  const warnings: string[] = [];
  const handler = proxyLoginHandler({
    ask: async (q) => (questions.push(q), answers.shift() ?? null),
    log: { warn: (m) => void warnings.push(m) },
  });
  /** One login request as Electron emits it; returns what the callback got and whether the default was prevented. */
  const login = async (firstAuthAttempt = true, authInfo = PROXY) => {
    let prevented = false;
    let answered: (string | undefined)[] | null = null;
    handler(
      { preventDefault: () => void (prevented = true) },
      null,
      { url: 'https://api.trakkr.ai/get-brands', firstAuthAttempt },
      authInfo,
      (...a) => void (answered = a),
    );
    await flush();
    return { prevented, answered: answered as (string | undefined)[] | null };
  };
  return { login, questions, warnings };
}

describe("the core's requests through an authenticating proxy", () => {
  it('asks once, answers, and answers the next requests from memory', async () => {
    const t = setup([{ username: 'jane', password: 's3cret' }]);
    expect(await t.login()).toEqual({ prevented: true, answered: ['jane', 's3cret'] });
    expect(await t.login()).toEqual({ prevented: true, answered: ['jane', 's3cret'] });
    expect(t.questions).toEqual([{ host: 'proxy.corp.example', port: 3128, realm: 'Corp', retry: false }]);
  });

  it('the proxy refuses the answer: asks again, saying so', async () => {
    const t = setup([
      { username: 'jane', password: 'typo' },
      { username: 'jane', password: 's3cret' },
    ]);
    await t.login();
    expect(await t.login(false)).toEqual({ prevented: true, answered: ['jane', 's3cret'] });
    expect(t.questions.map((q) => q.retry)).toEqual([false, true]);
  });

  it(`after ${MAX_PROXY_ATTEMPTS} refusals it stops asking and cancels`, async () => {
    const t = setup(Array.from({ length: 10 }, () => ({ username: 'jane', password: 'wrong' })));
    await t.login();
    for (let i = 0; i < MAX_PROXY_ATTEMPTS; i++) await t.login(false);
    expect(t.questions).toHaveLength(MAX_PROXY_ATTEMPTS);
    expect((await t.login(false)).answered).toEqual([]);
    expect(t.questions).toHaveLength(MAX_PROXY_ATTEMPTS);
  });

  it('several requests at once share one question', async () => {
    const t = setup([{ username: 'jane', password: 's3cret' }]);
    const all = await Promise.all([t.login(), t.login(), t.login()]);
    expect(all.map((a) => a.answered)).toEqual(Array(3).fill(['jane', 's3cret']));
    expect(t.questions).toHaveLength(1);
  });

  it('Cancel cancels the request, and the person is not asked again this run', async () => {
    const t = setup([null]);
    expect(await t.login()).toEqual({ prevented: true, answered: [] });
    expect(await t.login()).toEqual({ prevented: true, answered: [] });
    expect(t.questions).toHaveLength(1);
    expect(t.warnings[0]).toMatch(/proxy\.corp\.example:3128 asked for a login and none was given/);
  });

  it("wired to app 'login' as Electron emits it for the core's requests: a proxy is answered, a server is left to the default", async () => {
    const app = new FakeRunningApp({ appData: '/tmp/appdata-login' });
    const questions: ProxyQuestion[] = [];
    app.on('login', proxyLoginHandler({ ask: async (q) => (questions.push(q), { username: 'jane', password: 's3cret' }), log: { warn: () => {} } }) as never);
    expect(await app.login(PROXY)).toEqual({ prevented: true, answer: ['jane', 's3cret'] });
    expect(await app.login({ ...PROXY, isProxy: false })).toEqual({ prevented: false, answer: undefined });
    expect(questions).toHaveLength(1);
  });

  it("a server's own login (401 with a Basic challenge) is never answered: the default cancels it", async () => {
    const t = setup([{ username: 'x', password: 'y' }]);
    expect(await t.login(true, { ...PROXY, isProxy: false, host: 'api.trakkr.ai', port: 443 })).toEqual({ prevented: false, answered: null });
    expect(t.questions).toEqual([]);
  });
});

describe('the question', () => {
  it('shows the proxy and its realm as text, with a form and no script', () => {
    const page = proxyLoginPage({ host: 'proxy<b>', port: 8080, realm: '"><script>alert(1)</script>', retry: true });
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('proxy&#60;b&#62;:8080');
    expect(page).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page).toContain('did not accept that user name and password');
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; form-action https://proxy-login.invalid"`);
  });

  it("reads the form's answer from its address, a cancel, and nothing else", () => {
    expect(readProxyLoginSubmission('https://proxy-login.invalid/answer?u=jane+doe&p=p%26ss%3D')).toEqual({ username: 'jane doe', password: 'p&ss=' });
    expect(readProxyLoginSubmission('https://proxy-login.invalid/cancel?u=&p=')).toBe('cancel');
    expect(readProxyLoginSubmission('https://evil.example/answer?u=a&p=b')).toBeNull();
    expect(readProxyLoginSubmission('not a url')).toBeNull();
  });

  class FakeQuestionWindow extends EventEmitter implements QuestionWindow {
    readonly webContents = Object.assign(new EventEmitter(), { setWindowOpenHandler: () => {} });
    loaded = '';
    closed = 0;
    destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
    }
    async loadURL(url: string) {
      this.loaded = url;
    }
    close() {
      this.closed++;
      this.destroyed = true;
      this.emit('closed');
    }
    isDestroyed() {
      return this.destroyed;
    }
    /** The form is sent: Electron emits 'will-navigate' with the address on the event. */
    submit(url: string): boolean {
      let prevented = false;
      this.webContents.emit('will-navigate', { url, preventDefault: () => void (prevented = true) });
      return prevented;
    }
  }

  it('asks in a window without JavaScript; the submission is read and never loaded; the window closes', async () => {
    let w!: FakeQuestionWindow;
    const answer = askInWindow((o) => (w = new FakeQuestionWindow(o as Record<string, unknown>)), null, { host: 'p', port: 1, realm: '', retry: false });
    expect(w.options.webPreferences).toMatchObject({ javascript: false, sandbox: true, devTools: false });
    expect(decodeURIComponent(w.loaded)).toMatch(/^data:text\/html;charset=utf-8,<!doctype html>/);
    expect(w.submit('https://proxy-login.invalid/answer?u=jane&p=pw')).toBe(true);
    await expect(answer).resolves.toEqual({ username: 'jane', password: 'pw' });
    expect(w.closed).toBe(1);
  });

  it('closing the window is a cancel', async () => {
    let w!: FakeQuestionWindow;
    const answer = askInWindow((o) => (w = new FakeQuestionWindow(o as Record<string, unknown>)), null, { host: 'p', port: 1, realm: '', retry: false });
    w.close();
    await expect(answer).resolves.toBeNull();
  });
});
