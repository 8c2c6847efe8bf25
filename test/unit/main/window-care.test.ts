// The window never stays blank or dead (electron/main/window-care.ts), its title keeps the demo's
// label, its text fields have a context menu with spelling (context-menu.ts), and spelling never
// downloads a dictionary the person did not choose (spellcheck.ts). Electron-shaped fakes, fake
// timers, a fresh set-up per test.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contextMenuTemplate, watchContextMenu, type ContextMenuParamsLike } from '../../../electron/main/context-menu';
import { applySpellcheck, CHROMIUM_DICTIONARIES, NO_DICTIONARY_DOWNLOADS, spellcheckPlan } from '../../../electron/main/spellcheck';
import { liveWindow, windowDialogs } from '../../../electron/main/parent-window';
import { followPageTitle, keepWindowAlive, windowTitle } from '../../../electron/main/window-care';
import { FakeBrowserWindow, FakeSession } from '../../support/fake-electron';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function watched(answer: 'retry' | 'quit' = 'quit') {
  const win = new FakeBrowserWindow();
  const asked: { title: string; message: string; detail: string }[] = [];
  const logged: string[] = [];
  let quits = 0;
  keepWindowAlive(win, {
    log: { warn: (m) => void logged.push(`warn: ${m}`), error: (m) => void logged.push(`error: ${m}`) },
    ask: async (what) => (asked.push(what), answer),
    quit: () => void quits++,
  });
  return { win, asked, logged, quits: () => quits };
}

describe('a window whose page goes away or fails to load', () => {
  it('the page process crashes: the window reloads once by itself, and says nothing', () => {
    const t = watched();
    t.win.webContents.gone('crashed', 139);
    expect(t.win.webContents.reloads).toBe(1);
    expect(t.asked).toEqual([]);
    expect(t.logged).toEqual(['warn: the window failed (The window’s page crashed.: reason: crashed, exit code 139); reloading it once']);
  });

  it('it fails again: the window is shown and the person is told what happened, with Try again or Quit; Quit quits', async () => {
    const t = watched('quit');
    t.win.webContents.gone('oom');
    t.win.webContents.gone('oom');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.win.webContents.reloads).toBe(1);
    expect(t.win.shown).toBe(1);
    expect(t.asked).toEqual([
      {
        title: 'Outreach Workbench',
        message: 'The window’s page ran out of memory. Reloading it did not help.',
        detail: 'reason: oom, exit code 0\n\nYour data is safe in the cache. Try again, or quit and open the app again.',
      },
    ]);
    expect(t.quits()).toBe(1);
  });

  it('Try again reloads it', async () => {
    const t = watched('retry');
    t.win.webContents.failLoad(-6, 'ERR_FILE_NOT_FOUND');
    t.win.webContents.failLoad(-6, 'ERR_FILE_NOT_FOUND');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.asked[0]!.message).toBe('The window’s page could not be loaded. Reloading it did not help.');
    expect(t.asked[0]!.detail).toContain('ERR_FILE_NOT_FOUND (-6) loading app://renderer/index.html');
    expect(t.win.webContents.reloads).toBe(2);
    expect(t.quits()).toBe(0);
  });

  it('a page that stays up for a minute after reloading starts afresh: its next failure reloads again', async () => {
    const t = watched();
    t.win.webContents.gone('crashed');
    t.win.webContents.emit('did-finish-load');
    await vi.advanceTimersByTimeAsync(60_000);
    t.win.webContents.gone('crashed');
    expect(t.win.webContents.reloads).toBe(2);
    expect(t.asked).toEqual([]);
  });

  it('a page that loads and crashes again at once is not reloaded for ever', async () => {
    const t = watched();
    t.win.webContents.gone('crashed');
    t.win.webContents.emit('did-finish-load');
    await vi.advanceTimersByTimeAsync(1_000);
    t.win.webContents.gone('crashed');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.win.webContents.reloads).toBe(1);
    expect(t.asked).toHaveLength(1);
  });

  it('a load cancelled by another (ERR_ABORTED) and a sub-frame that fails are not failures of the window', () => {
    const t = watched();
    t.win.webContents.failLoad(-3, 'ERR_ABORTED');
    t.win.webContents.failLoad(-105, 'ERR_NAME_NOT_RESOLVED', 'https://example.org/', false);
    expect(t.win.webContents.reloads).toBe(0);
  });

  it('a window already closed is left alone', () => {
    const t = watched();
    t.win.destroyed = true;
    t.win.webContents.gone('crashed');
    expect(t.win.webContents.reloads).toBe(0);
  });
});

describe("the window's title", () => {
  it("follows the page's <title>, and keeps '(demo)' in demo mode", () => {
    const demo = new FakeBrowserWindow();
    followPageTitle(demo, true);
    demo.pageTitle('Outreach Workbench');
    expect(demo.title).toBe('Outreach Workbench (demo)');
    const real = new FakeBrowserWindow();
    followPageTitle(real, false);
    real.pageTitle('Outreach Workbench');
    expect(real.title).toBe('Outreach Workbench');
    expect(windowTitle('  ', true)).toBe('Outreach Workbench (demo)');
    expect(windowTitle('Outreach Workbench (demo)', true)).toBe('Outreach Workbench (demo)');
  });
});

describe('the context menu', () => {
  const flags = { canCut: true, canCopy: true, canPaste: true, canSelectAll: true };
  const params = (p: Partial<ContextMenuParamsLike>): ContextMenuParamsLike => ({
    isEditable: true,
    selectionText: '',
    misspelledWord: '',
    dictionarySuggestions: [],
    editFlags: flags,
    ...p,
  });
  const shape = (items: ReturnType<typeof contextMenuTemplate>) => items.map((i) => i.role ?? i.label ?? i.type);

  it('in a text field: cut, copy, paste and select all, each enabled as the field allows', () => {
    const items = contextMenuTemplate(params({ editFlags: { ...flags, canCut: false, canCopy: false } }), { replaceMisspelling() {}, addToDictionary() {} });
    expect(shape(items)).toEqual(['cut', 'copy', 'paste', 'separator', 'selectAll']);
    expect(items.map((i) => i.enabled)).toEqual([false, false, true, undefined, true]);
  });

  it('on a misspelt word: the suggestions (at most five) and "Add to dictionary" first, each doing what it says', () => {
    const replaced: string[] = [];
    const added: string[] = [];
    const items = contextMenuTemplate(
      params({ misspelledWord: 'pitchs', dictionarySuggestions: ['pitches', 'pitch', 'pithy', 'pinch', 'patches', 'pitchers'] }),
      {
        replaceMisspelling: (w) => void replaced.push(w),
        addToDictionary: (w) => void added.push(w),
      },
    );
    expect(shape(items)).toEqual([
      'pitches',
      'pitch',
      'pithy',
      'pinch',
      'patches',
      'Add “pitchs” to dictionary',
      'separator',
      'cut',
      'copy',
      'paste',
      'separator',
      'selectAll',
    ]);
    (items[0]!.click as () => void)();
    (items[5]!.click as () => void)();
    expect(replaced).toEqual(['pitches']);
    expect(added).toEqual(['pitchs']);
  });

  it('a misspelt word without suggestions says so, and can still be added', () => {
    const items = contextMenuTemplate(params({ misspelledWord: 'Trakkr' }), { replaceMisspelling() {}, addToDictionary() {} });
    expect(items[0]).toEqual({ label: 'No spelling suggestions', enabled: false });
    expect(items[1]!.label).toBe('Add “Trakkr” to dictionary');
  });

  it("a right-click in the window (webContents 'context-menu') pops the menu up; its spelling items reach the page and the session's dictionary", () => {
    const win = new FakeBrowserWindow();
    const popped: ReturnType<typeof contextMenuTemplate>[] = [];
    watchContextMenu(win.webContents, (t) => void popped.push(t));
    win.webContents.rightClick({ misspelledWord: 'recieve', dictionarySuggestions: ['receive'] });
    win.webContents.rightClick({ isEditable: false }); // nothing under the pointer: no menu
    expect(popped).toHaveLength(1);
    (popped[0]![0]!.click as () => void)();
    (popped[0]![1]!.click as () => void)();
    expect(win.webContents.replaced).toEqual(['receive']);
    expect(win.webContents.session.addedWords).toEqual(['recieve']);
  });

  it('selected text outside a field: copy only; nothing selected outside a field: no menu', () => {
    const noop = { replaceMisspelling() {}, addToDictionary() {} };
    expect(shape(contextMenuTemplate(params({ isEditable: false, selectionText: 'Ana Lopez' }), noop))).toEqual(['copy']);
    expect(contextMenuTemplate(params({ isEditable: false }), noop)).toEqual([]);
  });
});

describe('spelling without a silent download', () => {
  it("macOS: the system's own dictionaries, nothing downloaded; off when turned off", () => {
    expect(spellcheckPlan('darwin', 'system', ['en-GB'], [])).toEqual({ enabled: true, languages: null, download: false });
    expect(spellcheckPlan('darwin', 'off', ['en-GB'], [])).toMatchObject({ enabled: false });
  });

  it('Windows and Linux by default: off, and the dictionary downloader pointed inside the app', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const plan = spellcheckPlan(platform, 'system', ['de-DE'], ['de-DE', 'en-US']);
      expect(plan).toEqual({ enabled: false, languages: null, download: false });
      const calls: string[] = [];
      applySpellcheck(
        {
          setSpellCheckerEnabled: (e) => void calls.push(`enabled:${e}`),
          setSpellCheckerLanguages: (l) => void calls.push(`languages:${l.join(',')}`),
          setSpellCheckerDictionaryDownloadURL: (u) => void calls.push(`url:${u}`),
        },
        plan,
        platform,
      );
      expect(calls).toEqual([`url:${NO_DICTIONARY_DOWNLOADS}`, 'languages:', 'enabled:false']);
    }
  });

  it("on a session: Windows' default points the downloader inside the app and checks nothing; the download choice sets languages the session knows", () => {
    const ses = new FakeSession();
    applySpellcheck(ses, spellcheckPlan('win32', 'system', ['de-DE'], ses.availableSpellCheckerLanguages), 'win32');
    expect(ses).toMatchObject({ spellCheckerEnabled: false, spellCheckerLanguages: [], dictionaryDownloadURL: NO_DICTIONARY_DOWNLOADS });
    const chosen = new FakeSession();
    applySpellcheck(chosen, spellcheckPlan('linux', 'download', ['de-DE', 'fr-FR'], chosen.availableSpellCheckerLanguages), 'linux');
    expect(chosen).toMatchObject({ spellCheckerEnabled: true, spellCheckerLanguages: ['de', 'fr-FR'] });
    expect(chosen.dictionaryDownloadURL).toMatch(/^https:\/\//); // Chromium's own: the person chose it
    const mac = new FakeSession();
    applySpellcheck(mac, spellcheckPlan('darwin', 'system', ['de-DE'], []), 'darwin');
    expect(mac).toMatchObject({ spellCheckerEnabled: true, spellCheckerLanguages: ['en-US'] }); // macOS decides itself
  });

  it("chosen in Settings: Chromium's dictionaries for the system's languages (English when none is known)", () => {
    expect(spellcheckPlan('linux', 'download', ['de-AT', 'fr-FR', 'xx'], ['de', 'fr-FR', 'en-US'])).toEqual({
      enabled: true,
      languages: ['de', 'fr-FR'],
      download: true,
    });
    expect(spellcheckPlan('win32', 'download', ['xx-YY'], ['en-US'])).toEqual({ enabled: true, languages: ['en-US'], download: true });
    const calls: string[] = [];
    applySpellcheck(
      {
        setSpellCheckerEnabled: (e) => void calls.push(`enabled:${e}`),
        setSpellCheckerLanguages: (l) => void calls.push(`languages:${l.join(',')}`),
        setSpellCheckerDictionaryDownloadURL: (u) => void calls.push(`url:${u}`),
      },
      spellcheckPlan('win32', 'download', ['en-GB'], ['en-GB']),
      'win32',
    );
    expect(calls).toEqual([`url:${CHROMIUM_DICTIONARIES}`, 'languages:en-GB', 'enabled:true']);
  });

  it('the app starts with no download (the choice unknown yet), then the saved or new choice of the download is honoured on the same session', () => {
    const ses = new FakeSession();
    // At start (index.ts prepare): the default plan, before the settings are read.
    applySpellcheck(ses, spellcheckPlan('linux', 'system', [], []), 'linux');
    expect(ses.dictionaryDownloadURL).toBe(NO_DICTIONARY_DOWNLOADS);
    // The settings say 'download' (saved, or chosen now in Settings): Chromium's dictionaries again.
    applySpellcheck(ses, spellcheckPlan('linux', 'download', ['de-DE'], ses.availableSpellCheckerLanguages), 'linux');
    expect(ses).toMatchObject({ spellCheckerEnabled: true, spellCheckerLanguages: ['de'], dictionaryDownloadURL: CHROMIUM_DICTIONARIES });
    // And back: turned off, nothing may be fetched again.
    applySpellcheck(ses, spellcheckPlan('linux', 'off', ['de-DE'], ses.availableSpellCheckerLanguages), 'linux');
    expect(ses).toMatchObject({ spellCheckerEnabled: false, dictionaryDownloadURL: NO_DICTIONARY_DOWNLOADS });
  });
});

describe("main's dialogs and the window", () => {
  /** Electron's dialog as far as main uses it: records whether each dialog got a parent window. */
  function recordingDialog() {
    const shown: string[] = [];
    const record = (kind: string, args: unknown[]) => {
      shown.push(`${kind}:${args.length === 2 ? 'attached' : 'alone'}`);
      if ((args[0] as FakeBrowserWindow | undefined)?.destroyed) throw new Error('Object has been destroyed');
    };
    const dialog = {
      showMessageBox: async (...args: unknown[]) => (record('message', args), { response: 0, checkboxChecked: false }),
      showSaveDialog: async (...args: unknown[]) => (record('save', args), { canceled: false, filePath: '/home/jane/report.zip' }),
      showOpenDialog: async (...args: unknown[]) => (record('open', args), { canceled: false, filePaths: ['/home/jane/a.csv'] }),
    };
    return { dialog, shown };
  }

  it('attached to the window while it is open; on their own once it is closed (macOS: Cmd+W), not refused', async () => {
    const { dialog, shown } = recordingDialog();
    let win: FakeBrowserWindow | null = null;
    const dialogs = windowDialogs(dialog as never, () => win);
    await dialogs.showMessageBox({ message: 'before the window' });
    win = new FakeBrowserWindow();
    await dialogs.showSaveDialog({ title: 'Save a problem report' });
    win.destroyed = true;
    await expect(dialogs.showMessageBox({ message: 'Outreach Workbench 1.5.0 is ready.' })).resolves.toMatchObject({ response: 0 });
    await expect(dialogs.showSaveDialog({ title: 'Save a problem report' })).resolves.toMatchObject({ filePath: '/home/jane/report.zip' });
    await expect(dialogs.showOpenDialog({ title: 'Import' })).resolves.toMatchObject({ filePaths: ['/home/jane/a.csv'] });
    expect(shown).toEqual(['message:alone', 'save:attached', 'message:alone', 'save:alone', 'open:alone']);
    expect(liveWindow(win)).toBeNull();
  });
});
