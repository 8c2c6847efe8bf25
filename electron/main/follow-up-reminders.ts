// When follow-ups come due while the app runs, one system notification a day ("3 follow-ups due"),
// which opens the Due view when clicked; the "Follow-up reminders" setting turns it off. At launch
// the window itself says how many are due, so the launch day counts as told. Plain logic over small
// seams (the core's count, the setting, a notification, the clock), tested with fake timers.
import type { LifecycleLog } from './lifecycle';

/** How often a running app looks at the count of follow-ups due. */
export const REMINDER_CHECK_EVERY_MS = 60 * 60_000;

export interface FollowUpRemindersDeps {
  /** The follow-ups due now (the core's pipeline:due total), or null when it cannot be read. */
  dueCount(): Promise<number | null>;
  /** Whether the "Follow-up reminders" setting is on. */
  enabled(): Promise<boolean>;
  /** Today on the person's calendar (YYYY-MM-DD). */
  today(): string;
  /** Show a system notification; `onClick` when it is clicked. */
  notify(body: string, onClick: () => void): void;
  /** Bring the window forward on the Due view. */
  showDue(): void;
  log: Pick<LifecycleLog, 'warn'>;
}

/** "1 follow-up due", "3 follow-ups due". */
export function reminderText(due: number): string {
  return `${due} follow-up${due === 1 ? '' : 's'} due`;
}

export class FollowUpReminders {
  private told: string | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly d: FollowUpRemindersDeps) {}

  /** The window is up and has said what is due today: look again every hour. */
  start(): void {
    if (this.timer) return;
    this.told = this.d.today();
    this.timer = setInterval(() => void this.check(), REMINDER_CHECK_EVERY_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One look: a notification when follow-ups are due and none was shown today. Never throws. */
  async check(): Promise<boolean> {
    try {
      const today = this.d.today();
      if (this.told === today || !(await this.d.enabled())) return false;
      const due = await this.d.dueCount();
      if (!due || due <= 0) return false;
      this.told = today;
      this.d.notify(reminderText(due), () => this.d.showDue());
      return true;
    } catch (e) {
      this.d.log.warn('the follow-up reminder could not be shown', e);
      return false;
    }
  }
}

/** The parts of Electron's Notification the reminders use. */
export interface NotificationLike {
  on(event: 'click', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'failed', listener: () => void): unknown;
  show(): void;
}

/**
 * A `notify` for the reminders that keeps each notification referenced until it is clicked, closed
 * or fails: a notification object the garbage collector takes loses its click handler, and the
 * click would then open nothing. `make` returns null where the system has no notifications.
 */
export function keptNotifications(make: (body: string) => NotificationLike | null): {
  notify(body: string, onClick: () => void): void;
  readonly kept: ReadonlySet<NotificationLike>;
} {
  const kept = new Set<NotificationLike>();
  return {
    kept,
    notify(body, onClick) {
      const n = make(body);
      if (!n) return;
      kept.add(n);
      const release = () => void kept.delete(n);
      n.on('click', () => {
        release();
        onClick();
      });
      n.on('close', release);
      n.on('failed', release);
      n.show();
    },
  };
}
