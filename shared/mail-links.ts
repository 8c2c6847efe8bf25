// Sending a filled pitch through the user's own mail: the default mail app
// (mailto:, RFC 6068), Gmail on the web (its compose URL), Outlook on the web
// for work or school accounts (outlook.office.com) or Outlook.com for personal
// accounts (outlook.live.com), each by its compose deep link, for the
// addresses chosen. A link is at most MAX_URL_LENGTH characters (Windows'
// ShellExecute, as main checks). When everything does not fit, the link never
// lies: the body goes first, then addresses are left out whole (never cut in
// the middle), then the subject; whatever is left out is put together for the
// clipboard, and the message says exactly what is in the link and what was
// copied. Any text builds a link: a lone surrogate (which cannot be
// percent-encoded) becomes U+FFFD. Every link passes the checks main applies
// (checkExternalUrl, checkMailto), and a web link is already in the form the
// URL parser gives back, so what is checked is what opens. And who a pitch may
// go to. Pure functions.
import type { Contact } from './contacts';
import { invalidInput } from './errors';
import { checkExternalUrl, checkMailto, MAX_URL_LENGTH } from './links';
import { isRoleAddress } from './merge-fields';

export const MAIL_VIA = ['default', 'gmail', 'outlook', 'outlook-personal'] as const;
export type MailVia = (typeof MAIL_VIA)[number];

/** Each way of sending, as the message names it. */
export const VIA_NAMES: Record<MailVia, string> = { default: 'your mail app', gmail: 'Gmail', outlook: 'Outlook', 'outlook-personal': 'Outlook.com' };
/** What a link is called in a sentence: "a mail link", "an Outlook link". */
const linkName = (via: MailVia) => (via === 'default' ? 'mail' : VIA_NAMES[via]);
const TITLES: Record<MailVia, string> = { default: 'The mail app', gmail: 'Gmail', outlook: 'Outlook', 'outlook-personal': 'Outlook.com' };

export interface ComposeLink {
  url: string;
  /** What the link carries: the addresses (the first ones, in order; To's before Bcc's), and whether the subject and the body are in it. */
  inLink: { to: string[]; bcc: string[]; subject: boolean; body: boolean };
  /** What did not fit, put together to paste (the caller copies it): null when everything is in the link. Only the body: the body alone. */
  clipboard: string | null;
  /** The body did not fit in the link (it is on the clipboard). */
  bodyLeftOut: boolean;
  /** Plain words: what opens with what, and what was copied. */
  message: string;
}

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws): it becomes U+FFFD. */
export const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** RFC 6068 percent-encoding: encodeURIComponent (never '+' for space), line breaks as %0D%0A. */
export function mailtoEncode(text: string): string {
  return encodeURIComponent(wellFormed(text).replace(/\r\n|\r|\n/g, '\r\n'));
}

/** Address part of a mailto: the addresses go in the path, comma-separated, each encoded except '@'. */
const mailtoAddress = (emails: readonly string[]) => emails.map((e) => encodeURIComponent(wellFormed(e.trim())).replace(/%40/g, '@')).join(',');

/**
 * Web links: every character outside RFC 3986's unreserved set encoded (so a
 * space is %20, never '+', and ' ( ) * ! too, which the URL parser would
 * otherwise rewrite), line breaks as %0A.
 */
const enc = (text: string) =>
  encodeURIComponent(wellFormed(text).replace(/\r\n?/g, '\n')).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** Addresses as a comma-separated list, '@' kept readable. */
const addressList = (to: readonly string[]) => to.map((a) => enc(a.trim()).replace(/%40/g, '@')).join(',');

const WEB_BASE: Record<Exclude<MailVia, 'default'>, { url: string; subject: string }> = {
  gmail: { url: 'https://mail.google.com/mail/?view=cm&fs=1&to=', subject: 'su' },
  outlook: { url: 'https://outlook.office.com/mail/deeplink/compose?to=', subject: 'subject' },
  'outlook-personal': { url: 'https://outlook.live.com/mail/0/deeplink/compose?to=', subject: 'subject' },
};

/** The link for these parts (a part that is null or empty is not in it; `bcc`: addresses in Bcc). */
function build(via: MailVia, to: readonly string[], bcc: readonly string[], subject: string | null, body: string | null): string {
  if (via === 'default') {
    const fields = [
      ...(bcc.length ? [`bcc=${mailtoAddress(bcc)}`] : []),
      ...(subject ? [`subject=${mailtoEncode(subject)}`] : []),
      ...(body ? [`body=${mailtoEncode(body)}`] : []),
    ];
    return `mailto:${mailtoAddress(to)}${fields.length ? `?${fields.join('&')}` : ''}`;
  }
  const base = WEB_BASE[via];
  return `${base.url}${addressList(to)}${bcc.length ? `&bcc=${addressList(bcc)}` : ''}${subject ? `&${base.subject}=${enc(subject)}` : ''}${body ? `&body=${enc(body)}` : ''}`;
}

const fits = (via: MailVia, url: string) => url.length <= MAX_URL_LENGTH && (via === 'default' ? checkMailto(url).ok : checkExternalUrl(url).ok);

/** The first `n` addresses of To then Bcc (To's come first: the Bcc ones are left out before them). */
const firstAddresses = (to: readonly string[], bcc: readonly string[], n: number) => ({
  to: to.slice(0, Math.min(n, to.length)),
  bcc: bcc.slice(0, Math.max(0, n - to.length)),
});

/** The most addresses, To's first, that fit with this subject (0 when not even one does). */
function mostThatFit(via: MailVia, to: readonly string[], bcc: readonly string[], subject: string | null): number {
  let n = 0;
  while (n < to.length + bcc.length) {
    const next = firstAddresses(to, bcc, n + 1);
    if (!fits(via, build(via, next.to, next.bcc, subject, null))) break;
    n++;
  }
  return n;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const listed = (parts: string[]) => (parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`);

/**
 * The link that opens the pitch in `via`, ready for main's checked path, and
 * what did not fit. `bcc`: addresses that go in Bcc (a person in To, shared
 * inboxes in Bcc); past the limit they are left out before any of To.
 */
export function composeLink(via: MailVia, m: { to: readonly string[]; subject: string; body: string; bcc?: readonly string[] }): ComposeLink {
  const to = m.to.map((a) => wellFormed(a.trim())).filter(Boolean);
  const bcc = (m.bcc ?? []).map((a) => wellFormed(a.trim())).filter(Boolean);
  const subject = wellFormed(m.subject);
  const body = wellFormed(m.body);
  const name = VIA_NAMES[via];
  if (to.length === 0) throw invalidInput('Choose at least one address to send to.');
  const full = build(via, to, bcc, subject, body);
  if (fits(via, full)) {
    return {
      url: full,
      inLink: { to, bcc, subject: !!subject, body: !!body },
      clipboard: null,
      bodyLeftOut: false,
      message: via === 'default' ? 'Opening your mail app.' : `Opening ${name} in your browser.`,
    };
  }
  // Leave out the body first, then addresses (whole; Bcc's before To's), then the subject: the link keeps what fits, in that order of need.
  const total = to.length + bcc.length;
  let kept = total;
  let subjectIn = !!subject;
  if (!fits(via, build(via, to, bcc, subject, null))) {
    kept = subject ? mostThatFit(via, to, bcc, subject) : 0;
    if (kept === 0) {
      subjectIn = false;
      kept = mostThatFit(via, to, bcc, null);
    }
  }
  if (kept === 0) throw invalidInput(`The ${linkName(via)} link cannot hold even one of these addresses.`);
  const inLink = firstAddresses(to, bcc, kept);
  const url = build(via, inLink.to, inLink.bcc, subjectIn ? subject : null, null);
  const others = to.slice(inLink.to.length);
  const otherBcc = bcc.slice(inLink.bcc.length);
  const copied = [
    ...(others.length ? [`To (add ${others.length === 1 ? 'this address' : 'these addresses'} too): ${others.join(', ')}`] : []),
    ...(otherBcc.length ? [`Bcc (add ${otherBcc.length === 1 ? 'this address' : 'these addresses'} too): ${otherBcc.join(', ')}`] : []),
    ...(subject && !subjectIn ? [`Subject: ${subject}`] : []),
  ];
  const clipboard = copied.length ? [...copied, ...(body ? ['', body] : [])].join('\n') : body;
  const leftOut = others.length + otherBcc.length;
  const opensWith = [
    leftOut ? `${kept} of the ${total} addresses` : total === 1 ? 'the address' : total === 2 ? 'both addresses' : `all ${total} addresses`,
    ...(subjectIn ? ['the subject'] : []),
  ];
  const onClipboard = [
    ...(others.length ? [`the other ${count(others.length, 'address', 'addresses')} (paste ${others.length === 1 ? 'it' : 'them'} into To)`] : []),
    ...(otherBcc.length
      ? [
          `${others.length ? '' : 'the other '}${count(otherBcc.length, 'Bcc address', 'Bcc addresses')} (paste ${otherBcc.length === 1 ? 'it' : 'them'} into Bcc)`,
        ]
      : []),
    ...(subject && !subjectIn ? ['the subject'] : []),
    ...(body ? ['the body'] : []),
  ];
  const why = `The pitch is too long for ${/^[aeiou]/i.test(linkName(via)) ? 'an' : 'a'} ${linkName(via)} link (${full.length.toLocaleString('en-US')} characters; the limit is ${MAX_URL_LENGTH.toLocaleString('en-US')}).`;
  const copiedWords =
    onClipboard.length === 1 && body && !leftOut && subjectIn
      ? 'the body has been copied, so paste it in.'
      : `copied to the clipboard: ${listed(onClipboard)}, so paste ${onClipboard.length === 1 && !leftOut ? 'it' : 'them'} in.`;
  return {
    url,
    inLink: { ...inLink, subject: subjectIn, body: false },
    clipboard: clipboard || null,
    bodyLeftOut: !!body,
    message: `${why} ${TITLES[via]} opens with ${listed(opensWith)}; ${copiedWords}`,
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

/**
 * The addresses a contact marked without naming them was made with: the ones
 * pre-selected (personal addresses; role addresses only when there is no
 * personal one; never one excluded, i.e. on the do-not-contact list), or, when
 * catch-alls are all the opportunity has, its catch-alls.
 */
export function defaultRecipients(contacts: readonly Contact[], opts: PickOptions = {}): string[] {
  const picked = pickRecipients(contacts, opts);
  const chosen = picked.filter((r) => r.selected);
  return (chosen.length ? chosen : picked.filter((r) => r.catchAll)).map((r) => r.email);
}
