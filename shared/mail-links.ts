// Sending a filled pitch through the user's own mail: the default mail app
// (mailto:, RFC 6068), Gmail on the web (its compose URL) or Outlook on the web
// (its compose deep link), for the addresses chosen. A link too long to open
// safely (MAX_URL_LENGTH, as main checks) is rebuilt without the body, which
// the caller then copies for pasting; every link passes the same checks main
// applies before anything leaves the app (checkExternalUrl, checkMailto), and
// a web link is already in the form the URL parser gives back, so what is
// checked is what opens. And who a pitch may go to. Pure functions.
import { invalidInput } from './errors';
import type { Contact } from './contacts';
import { checkExternalUrl, checkMailto, MAX_URL_LENGTH } from './links';
import { isRoleAddress } from './merge-fields';
import { mailtoLink } from './outreach';

export const MAIL_VIA = ['default', 'gmail', 'outlook'] as const;
export type MailVia = (typeof MAIL_VIA)[number];

export interface ComposeLink {
  url: string;
  /** The body did not fit in a link: copy it to the clipboard and say so (`message`). */
  bodyLeftOut: boolean;
  message: string;
}

const NAMES: Record<MailVia, string> = { default: 'your mail app', gmail: 'Gmail', outlook: 'Outlook' };

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws): it becomes U+FFFD. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * Web links: every character outside RFC 3986's unreserved set encoded (so a
 * space is %20, never '+', and ' ( ) * ! too, which the URL parser would
 * otherwise rewrite), line breaks as %0A.
 */
const enc = (text: string) =>
  encodeURIComponent(wellFormed(text).replace(/\r\n?/g, '\n')).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** Addresses as a comma-separated list, '@' kept readable. */
const addressList = (to: readonly string[]) => to.map((a) => enc(a.trim()).replace(/%40/g, '@')).join(',');

const WEB_BASE: Record<'gmail' | 'outlook', { url: string; subject: string }> = {
  gmail: { url: 'https://mail.google.com/mail/?view=cm&fs=1&to=', subject: 'su' },
  outlook: { url: 'https://outlook.office.com/mail/deeplink/compose?to=', subject: 'subject' },
};

function webLink(via: 'gmail' | 'outlook', to: readonly string[], subject: string, body: string | null, bcc: readonly string[]): string {
  const base = WEB_BASE[via];
  return `${base.url}${addressList(to)}${bcc.length ? `&bcc=${addressList(bcc)}` : ''}${subject ? `&${base.subject}=${enc(subject)}` : ''}${body ? `&body=${enc(body)}` : ''}`;
}

const fits = (url: string) => url.length <= MAX_URL_LENGTH && checkExternalUrl(url).ok;

/** The link that opens the pitch in `via`, ready for main's checked path. Throws an invalid-input error only when not even the addresses and subject fit. */
export function composeLink(via: MailVia, m: { to: readonly string[]; subject: string; body: string; bcc?: readonly string[] }): ComposeLink {
  const subject = wellFormed(m.subject);
  const body = wellFormed(m.body);
  const bcc = (m.bcc ?? []).map((a) => a.trim());
  if (via === 'default') {
    const link = mailtoLink(
      m.to.map((a) => a.trim()),
      subject,
      body,
      bcc,
    );
    const ok = checkMailto(link.url);
    if (!ok.ok) throw invalidInput(ok.reason);
    return { url: link.url, bodyLeftOut: link.tooLong, message: link.tooLong ? link.message : 'Opening your mail app.' };
  }
  const full = webLink(via, m.to, subject, body, bcc);
  if (fits(full)) return { url: full, bodyLeftOut: false, message: `Opening ${NAMES[via]} in your browser.` };
  const short = webLink(via, m.to, subject, null, bcc);
  const checked = checkExternalUrl(short);
  if (!checked.ok) throw invalidInput(`The ${NAMES[via]} link cannot be opened: ${checked.reason}`);
  return {
    url: short,
    bodyLeftOut: true,
    message: `The pitch is too long for a ${NAMES[via]} link (${full.length.toLocaleString('en-US')} characters; the limit is ${MAX_URL_LENGTH.toLocaleString('en-US')}). ${NAMES[via]} opens with the address${subject ? ' and subject' : ''}; the body has been copied, so paste it in.`,
  };
}

export interface RecipientChoice {
  email: string;
  catchAll: boolean;
  /** A role address (press@, info@, …): an inbox, not a person. */
  role: boolean;
  /** Chosen to begin with: personal addresses; a role address only when there is no personal one; never a catch-all. */
  selected: boolean;
}

export interface PickOptions {
  /** Addresses never offered (the do-not-contact list). */
  exclude?: (c: Contact) => boolean;
}

/**
 * Who a pitch may go to: every valid address once, in the order given (an
 * entry that is not an address never; one excluded never). Personal addresses
 * are pre-selected; role addresses only when there is no personal one; a
 * catch-all never (it may reach nobody in particular: the user ticks it).
 */
export function pickRecipients(contacts: readonly Contact[], opts: PickOptions = {}): RecipientChoice[] {
  const seen = new Set<string>();
  const valid = contacts.filter((c) => c.valid && !(opts.exclude?.(c) ?? false) && !seen.has(c.identity) && seen.add(c.identity));
  const personal = valid.some((c) => !c.catchAll && !isRoleAddress(c.email));
  return valid.map((c) => {
    const role = isRoleAddress(c.email);
    return { email: c.email, catchAll: c.catchAll, role, selected: !c.catchAll && (!role || !personal) };
  });
}
