// Sending a filled pitch through the user's own mail: the default mail app
// (mailto:, RFC 6068), Gmail on the web (its compose URL) or Outlook on the web
// (its compose deep link), for the addresses chosen. A link too long to open
// safely is rebuilt without the body, which is then copied for pasting; every
// link passes the same checks main applies before anything leaves the app.
// And who a pitch may go to. Pure functions.
import type { Contact } from './contacts';
import { checkExternalUrl, checkMailto, MAX_URL_LENGTH } from './links';
import { isRoleAddress } from './merge-fields';
import { mailtoLink } from './outreach';

export type MailVia = 'default' | 'gmail' | 'outlook';

export interface ComposeLink {
  url: string;
  /** The body did not fit in a link: copy it to the clipboard and say so. */
  bodyLeftOut: boolean;
  message: string;
}

const NAMES: Record<MailVia, string> = { default: 'your mail app', gmail: 'Gmail', outlook: 'Outlook' };

/** Web links: %20 for a space, %0A for a line break, addresses as a comma-separated list. */
const enc = (text: string) => encodeURIComponent(text.replace(/\r\n?/g, '\n'));

function webLink(via: 'gmail' | 'outlook', to: readonly string[], subject: string, body: string | null): string {
  const addresses = to.map((a) => encodeURIComponent(a).replace(/%40/g, '@')).join(',');
  if (via === 'gmail') return `https://mail.google.com/mail/?view=cm&fs=1&to=${addresses}&su=${enc(subject)}${body === null ? '' : `&body=${enc(body)}`}`;
  return `https://outlook.office.com/mail/deeplink/compose?to=${addresses}&subject=${enc(subject)}${body === null ? '' : `&body=${enc(body)}`}`;
}

/** The link that opens the pitch in `via`, ready for main's checked path. */
export function composeLink(via: MailVia, m: { to: readonly string[]; subject: string; body: string }): ComposeLink {
  if (via === 'default') {
    const link = mailtoLink(m.to, m.subject, m.body);
    const ok = checkMailto(link.url);
    if (!ok.ok) throw new RangeError(ok.reason);
    return { url: link.url, bodyLeftOut: link.tooLong, message: link.tooLong ? link.message : 'Opening your mail app.' };
  }
  const full = webLink(via, m.to, m.subject, m.body);
  if (full.length <= MAX_URL_LENGTH && checkExternalUrl(full).ok) return { url: full, bodyLeftOut: false, message: `Opening ${NAMES[via]} in your browser.` };
  const short = webLink(via, m.to, m.subject, null);
  const checked = checkExternalUrl(short);
  if (!checked.ok) throw new RangeError(`The ${NAMES[via]} link cannot be opened: ${checked.reason}`);
  return {
    url: short,
    bodyLeftOut: true,
    message: `The pitch is too long for a ${NAMES[via]} link (${full.length.toLocaleString('en-US')} characters; the limit is ${MAX_URL_LENGTH.toLocaleString('en-US')}). ${NAMES[via]} opens with the address and subject; the body has been copied, so paste it in.`,
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

/** Who a pitch may go to: every valid address once (an invalid entry never); catch-alls never pre-selected. */
export function pickRecipients(contacts: readonly Contact[]): RecipientChoice[] {
  const seen = new Set<string>();
  const valid = contacts.filter((c) => c.valid && !seen.has(c.identity) && seen.add(c.identity));
  const personal = valid.some((c) => !c.catchAll && !isRoleAddress(c.email));
  return valid.map((c) => {
    const role = isRoleAddress(c.email);
    return { email: c.email, catchAll: c.catchAll, role, selected: !c.catchAll && (!role || !personal) };
  });
}
