// Follow-up reminders (electron/main/follow-up-reminders.ts): one notification a day when follow-ups
// come due while the app runs, opening the Due view; none while the setting is off. And the session's
// end (session-end.ts): Windows' query-session-end and session-end, and powerMonitor's shutdown
// elsewhere, start the app's quit once. Electron-shaped fakes, fake timers, a fresh set-up per test.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { FollowUpReminders, keptNotifications, REMINDER_CHECK_EVERY_MS, reminderText } from '../../../electron/main/follow-up-reminders';
import { quitWhenSessionEnds } from '../../../electron/main/session-end';
import { FakeBrowserWindow, FakePowerMonitor } from '../../support/fake-electron';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function reminders(start: { today: string; due: number; enabled?: boolean }) {
  let today = start.today;
  let due = start.due;
  let enabled = start.enabled ?? true;
  const shown: { body: string; click: () => void }[] = [];
  let dueViews = 0;
  const r = new FollowUpReminders({
    dueCount: async () => due,
    enabled: async () => enabled,
    today: () => today,
    notify: (body, onClick) => void shown.push({ body, click: onClick }),
    showDue: () => void dueViews++,
    log: { warn: () => {} },
  });
  return {
    r,
    shown,
    dueViews: () => dueViews,
    set: (o: { today?: string; due?: number; enabled?: boolean }) => {
      today = o.today ?? today;
      due = o.due ?? due;
      enabled = o.enabled ?? enabled;
    },
  };
}

describe('follow-up reminders', () => {
  it('the launch day counts as told (the window says it); the next day, one notification, and no second that day', async () => {
    const t = reminders({ today: '2026-11-24', due: 2 });
    t.r.start();
    await vi.advanceTimersByTimeAsync(REMINDER_CHECK_EVERY_MS * 3);
    expect(t.shown).toEqual([]);
    t.set({ today: '2026-11-25', due: 3 });
    await vi.advanceTimersByTimeAsync(REMINDER_CHECK_EVERY_MS);
    expect(t.shown.map((s) => s.body)).toEqual(['3 follow-ups due']);
    t.set({ due: 5 });
    await vi.advanceTimersByTimeAsync(REMINDER_CHECK_EVERY_MS * 5);
    expect(t.shown).toHaveLength(1);
    t.r.stop();
  });

  it('clicking it opens the Due view', async () => {
    const t = reminders({ today: '2026-11-24', due: 1 });
    t.r.start();
    t.set({ today: '2026-11-25' });
    expect(await t.r.check()).toBe(true);
    expect(t.shown[0]!.body).toBe('1 follow-up due');
    t.shown[0]!.click();
    expect(t.dueViews()).toBe(1);
    t.r.stop();
  });

  it('each notification is kept until it is clicked, closed or fails (a collected one would lose its click), and none where the system has none', () => {
    const made: EventEmitter[] = [];
    const clicks: string[] = [];
    const notes = keptNotifications((body) => {
      if (body === 'unsupported') return null;
      const n = Object.assign(new EventEmitter(), { body, shown: 0, show: () => void n.shown++ });
      made.push(n);
      return n;
    });
    notes.notify('3 follow-ups due', () => void clicks.push('3'));
    notes.notify('1 follow-up due', () => void clicks.push('1'));
    notes.notify('2 follow-ups due', () => void clicks.push('2'));
    notes.notify('unsupported', () => void clicks.push('never'));
    expect(made.map((n) => (n as unknown as { shown: number }).shown)).toEqual([1, 1, 1]);
    expect(notes.kept.size).toBe(3);
    made[0]!.emit('click');
    expect(clicks).toEqual(['3']);
    made[1]!.emit('close');
    made[2]!.emit('failed', new Error('no notification server'));
    expect(notes.kept.size).toBe(0);
  });

  it('none when nothing is due, or when the setting is off (and it comes once the setting is back on)', async () => {
    const t = reminders({ today: '2026-11-24', due: 0 });
    t.r.start();
    t.set({ today: '2026-11-25' });
    expect(await t.r.check()).toBe(false);
    t.set({ due: 4, enabled: false });
    expect(await t.r.check()).toBe(false);
    t.set({ enabled: true });
    expect(await t.r.check()).toBe(true);
    expect(reminderText(4)).toBe('4 follow-ups due');
    t.r.stop();
  });
});

describe('the session ends', () => {
  function watch() {
    const window = new FakeBrowserWindow();
    const powerMonitor = new EventEmitter();
    let quits = 0;
    quitWhenSessionEnds({ window, powerMonitor, quit: () => void quits++, log: { warn: () => {} } });
    const emit = (target: EventEmitter, name: string) => {
      let prevented = false;
      target.emit(name, { preventDefault: () => void (prevented = true), reasons: ['logoff'] });
      return prevented;
    };
    return { window, powerMonitor, emit, quits: () => quits };
  }

  it('Windows asks first (query-session-end): the end is held and the quit starts, once even when it ends after all', () => {
    const t = watch();
    expect(t.emit(t.window, 'query-session-end')).toBe(true);
    expect(t.quits()).toBe(1);
    t.emit(t.window, 'session-end');
    expect(t.quits()).toBe(1);
  });

  it('Windows ends it without asking (session-end): the quit starts', () => {
    const t = watch();
    t.emit(t.window, 'session-end');
    expect(t.quits()).toBe(1);
  });

  it('macOS and Linux shut down (powerMonitor shutdown): held, and the quit starts', () => {
    const t = watch();
    expect(t.emit(t.powerMonitor, 'shutdown')).toBe(true);
    expect(t.quits()).toBe(1);
    const pm = new FakePowerMonitor();
    let quits = 0;
    quitWhenSessionEnds({ powerMonitor: pm, quit: () => void quits++, log: { warn: () => {} } });
    expect(pm.shutdown()).toBe(true);
    expect(quits).toBe(1);
  });
});
