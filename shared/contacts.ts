// Contact parsing: the API's contact_emails entries are free text. An entry
// 'name@host CATCH' marks a catch-all address (mail to any name at that host is
// accepted, so it may reach nobody in particular). Pure functions.

export interface Contact {
  /** The entry as the API sent it. */
  raw: string;
  /** The address without the ' CATCH' suffix, trimmed, its domain lower-cased (normaliseAddress); for invalid entries the trimmed text. */
  email: string;
  /** Lower-cased address: the identity used for dedupe and "already pitched". */
  identity: string;
  catchAll: boolean;
  valid: boolean;
  /** Host part, lower-cased, for do-not-contact by domain; '' when invalid. */
  domain: string;
}

const CATCH_SUFFIX = /\s+CATCH$/;

// A practical address check: one @, a non-empty local part of the characters
// mail tools accept, a host with at least one dot and labels of letters,
// digits and hyphens. Stricter than RFC 5322 on purpose: quoted local parts and
// IP literals are not what a PR contact list holds.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

export function isEmailAddress(s: string): boolean {
  if (s.length > 254) return false;
  const at = s.lastIndexOf('@');
  if (at <= 0 || at !== s.indexOf('@')) return false;
  const local = s.slice(0, at);
  const host = s.slice(at + 1);
  if (local.length > 64 || !LOCAL.test(local)) return false;
  const labels = host.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((l) => LABEL.test(l))) return false;
  const tld = labels[labels.length - 1] ?? '';
  return /^[A-Za-z]{2,63}$/.test(tld) || /^xn--[A-Za-z0-9-]+$/.test(tld);
}

/**
 * An address as every part of the app writes it: trimmed, its domain
 * lower-cased (domains are case-insensitive, RFC 5321 2.4), its local part as
 * written (a mail tool may keep it). Its identity, for finding the same
 * person again, is the whole address lower-cased (addressIdentity).
 */
export function normaliseAddress(address: string): string {
  const a = address.trim();
  const at = a.lastIndexOf('@');
  return at < 0 ? a : a.slice(0, at + 1) + a.slice(at + 1).toLowerCase();
}

/** The same person's address, whatever its case: what dedupe, do-not-contact and "already contacted" compare. */
export const addressIdentity = (address: string): string => address.trim().toLowerCase();

export function parseContact(raw: string): Contact {
  const trimmed = raw.trim();
  const catchAll = CATCH_SUFFIX.test(trimmed);
  const written = catchAll ? trimmed.replace(CATCH_SUFFIX, '').trim() : trimmed;
  const valid = isEmailAddress(written);
  const email = valid ? normaliseAddress(written) : written;
  return {
    raw,
    email,
    identity: addressIdentity(email),
    catchAll,
    valid,
    domain: valid ? email.slice(email.indexOf('@') + 1).toLowerCase() : '',
  };
}

/**
 * Parse an opportunity's contact_emails. Empty entries are dropped; entries
 * that are the same address (case-insensitive) are kept once, and an address
 * counts as catch-all only if every mention of it says so.
 */
export function parseContacts(entries: unknown): Contact[] {
  if (!Array.isArray(entries)) return [];
  const byIdentity = new Map<string, Contact>();
  const out: Contact[] = [];
  for (const e of entries) {
    if (typeof e !== 'string' || e.trim() === '') continue;
    const c = parseContact(e);
    const seen = byIdentity.get(c.identity);
    if (seen) {
      if (!c.catchAll) seen.catchAll = false;
      continue;
    }
    byIdentity.set(c.identity, c);
    out.push(c);
  }
  return out;
}

/** Same person's address? (case-insensitive, suffix and spaces ignored) */
export function sameAddress(a: string, b: string): boolean {
  return parseContact(a).identity === parseContact(b).identity;
}
