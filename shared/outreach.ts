// What a person copies and sends: one address, the good addresses of an
// opportunity (catch-alls left out unless asked, and the count said), the
// pitch, and a mailto: link per RFC 6068. Pure functions.
import type { Contact } from './contacts';
import { composeLink } from './mail-links';

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
  /** True when the full link is too long to open: the body (and what else did not fit) is left out and should be copied instead. */
  tooLong: boolean;
  message: string;
}

export { mailtoEncode } from './mail-links';

/**
 * A mailto: link (RFC 6068) for these addresses (`bcc`: addresses that go in
 * Bcc, a person in To and shared inboxes in Bcc); past the limit, cut as
 * composeLink cuts (never in the middle of an address).
 */
export function mailtoLink(emails: readonly string[], subject?: string | null, body?: string | null, bcc: readonly string[] = []): Mailto {
  const link = composeLink('default', { to: emails, bcc, subject: subject ?? '', body: body ?? '' });
  return { url: link.url, tooLong: link.clipboard !== null, message: link.message };
}

/** How many opportunities one pitch to an outlet may cover (one message can name only so many pieces). */
export const PLAN_MAX = 50;
