// What a person copies and sends: one address, the good addresses of an
// opportunity (catch-alls left out unless asked, and the count said), the
// pitch, and a mailto: link per RFC 6068. Pure functions.
import type { Contact } from './contacts';

export interface CopyResult {
  text: string;
  /** Addresses included. */
  count: number;
  /** Catch-all addresses left out (0 when included). */
  leftOutCatchAll: number;
  /** Addresses on the do-not-contact list, never copied. */
  leftOutBlocked: number;
  /** Entries that are not addresses, never copied. */
  invalid: number;
  /** Plain words for the UI and CLI, e.g. "Copied 2 addresses; 1 catch-all left out." */
  message: string;
}

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

export function copyAddress(c: Contact): string {
  return c.email;
}

/**
 * The addresses to copy: valid ones, catch-alls only when asked, never one on
 * the do-not-contact list (a contact marked `blocked`, as the core's detail
 * marks them, or one `exclude` says), and what was left out, said.
 */
export function copyGoodAddresses(
  contacts: readonly (Contact & { blocked?: boolean })[],
  opts: { includeCatchAll?: boolean; exclude?: (c: Contact) => boolean } = {},
): CopyResult {
  const usable = contacts.filter((c) => c.valid);
  const allowed = usable.filter((c) => !c.blocked && !(opts.exclude?.(c) ?? false));
  const blocked = usable.length - allowed.length;
  const chosen = allowed.filter((c) => opts.includeCatchAll || !c.catchAll);
  const left = opts.includeCatchAll ? 0 : allowed.length - chosen.length;
  const invalid = contacts.filter((c) => !c.valid).length;
  const parts = [chosen.length ? `Copied ${plural(chosen.length, 'address', 'addresses')}` : 'No address to copy'];
  if (left) parts.push(`${plural(left, 'catch-all address', 'catch-all addresses')} left out`);
  if (blocked) parts.push(`${plural(blocked, 'address', 'addresses')} on your do-not-contact list left out`);
  if (invalid) parts.push(`${plural(invalid, 'entry', 'entries')} that ${invalid === 1 ? 'is' : 'are'} not an address`);
  return {
    text: chosen.map((c) => c.email).join(', '),
    count: chosen.length,
    leftOutCatchAll: left,
    leftOutBlocked: blocked,
    invalid,
    message: parts.join('; ') + '.',
  };
}

export function copyPitch(subject: string | undefined | null, body: string | undefined | null): string {
  const s = (subject ?? '').trim();
  const b = (body ?? '').replace(/\r\n?/g, '\n').trim();
  if (s && b) return `Subject: ${s}\n\n${b}`;
  return s || b;
}

/** Windows' ShellExecute (behind shell.openExternal) fails past this many characters. */
export const MAILTO_MAX_LENGTH = 2081;

export interface Mailto {
  url: string;
  /** True when the full link is too long to open: the body is left out and should be copied instead. */
  tooLong: boolean;
  message: string;
}

/** RFC 6068 percent-encoding: encodeURIComponent (never '+' for space), line breaks as %0D%0A. */
export function mailtoEncode(text: string): string {
  return encodeURIComponent(text.replace(/\r\n|\r|\n/g, '\r\n'));
}

/** Address part of a mailto: the addresses go in the path, comma-separated, each encoded except '@'. */
function mailtoAddress(emails: readonly string[]): string {
  return emails.map((e) => encodeURIComponent(e).replace(/%40/g, '@')).join(',');
}

/** `bcc`: addresses that go in Bcc (a person in To, shared inboxes in Bcc). */
export function mailtoLink(emails: readonly string[], subject?: string | null, body?: string | null, bcc: readonly string[] = []): Mailto {
  const fields: string[] = [];
  if (bcc.length) fields.push(`bcc=${mailtoAddress(bcc)}`);
  if (subject) fields.push(`subject=${mailtoEncode(subject)}`);
  const withoutBody = `mailto:${mailtoAddress(emails)}${fields.length ? `?${fields.join('&')}` : ''}`;
  if (body) fields.push(`body=${mailtoEncode(body)}`);
  const full = `mailto:${mailtoAddress(emails)}${fields.length ? `?${fields.join('&')}` : ''}`;
  if (full.length <= MAILTO_MAX_LENGTH) return { url: full, tooLong: false, message: 'Opening your mail app.' };
  return {
    url: withoutBody.length <= MAILTO_MAX_LENGTH ? withoutBody : `mailto:${mailtoAddress(emails)}`.slice(0, MAILTO_MAX_LENGTH),
    tooLong: true,
    message: `The pitch is too long for a mail link (${full.length.toLocaleString('en-US')} characters; the limit is ${MAILTO_MAX_LENGTH.toLocaleString('en-US')}). The mail app opens with the address${subject ? ' and subject' : ''}; the body has been copied, so paste it in.`,
  };
}
