// The mail apps a pitch opens in, as the window names them: each button's
// words and key in the editor, and the shortcut sheet's words. One place for
// them (the sentence names, "Gmail", "your mail app", are shared/mail-links.ts's
// VIA_NAMES, which the core's messages use too).
import type { MailVia } from '../../../shared/mail-links';

export interface MailApp {
  via: MailVia;
  /** The editor's button. */
  button: string;
  /** Its key (none: reached by the button only). */
  key: string | null;
  /** The shortcut sheet's words: "Open the pitch in …". */
  sheet: string;
}

export const MAIL_APPS: readonly MailApp[] = [
  { via: 'default', button: 'Open in mail app', key: 'm', sheet: 'your mail app' },
  { via: 'gmail', button: 'Open in Gmail', key: 'G', sheet: 'Gmail on the web' },
  { via: 'outlook', button: 'Open in Outlook (work or school)', key: 'O', sheet: 'Outlook on the web' },
  { via: 'outlook-personal', button: 'Open in Outlook.com (personal)', key: null, sheet: 'Outlook.com on the web' },
];

/** The shortcut sheet's words for the mail app `via`. */
export const sheetName = (via: MailVia): string => MAIL_APPS.find((a) => a.via === via)!.sheet;
