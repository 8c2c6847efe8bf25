// Where the API key may be sent: the API base URL is https://, or http:// to
// this computer only (the simulator on a loopback address). Everything else is
// refused with a reason in plain words, whether the address comes from the
// settings screen, settings.json, the environment or the command line.
//
// The address must be written plainly, so the origin a person reads is the
// origin the key goes to: no user name or password, no query or fragment, no
// percent-escapes, no backslashes, no trailing dot, and an IP address only in
// its usual form (`http://0x7f000001` and `http://127.1` are refused even
// though they mean 127.0.0.1; `[::ffff:127.0.0.1]` is refused too).
import { DEFAULT_BASE_URL } from './domain';

export const MAX_BASE_URL_LENGTH = 500;

export type ApiBaseUrlCheck = { ok: true; url: string; origin: string } | { ok: false; reason: string };

const RULE = 'The API address must start with https:// (http:// is allowed only for this computer: localhost, 127.x.x.x or [::1]).';

const refuse = (reason: string): ApiBaseUrlCheck => ({ ok: false, reason });

/** 127.0.0.0/8 written as four plain decimal numbers (no leading zeros, no hex). */
function isLoopbackIPv4(host: string): boolean {
  const parts = host.split('.');
  if (parts.length !== 4) return false;
  if (!parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return false;
  return parts[0] === '127';
}

/**
 * True for a host name that always means this computer: `localhost`, an IPv4
 * address in 127.0.0.0/8, or `[::1]` (`::1`). Exact matches only: no
 * subdomains (`localhost.evil.com`, `127.0.0.1.evil.com`), no trailing dot,
 * no other spellings of the address, no IPv4-mapped IPv6.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || h === '::1' || isLoopbackIPv4(h);
}

/** Check an API base URL; on success, its normal form (no trailing slash) and its origin. */
export function checkApiBaseUrl(input: string): ApiBaseUrlCheck {
  if (typeof input !== 'string' || input.length === 0) return refuse(`The API address is empty. ${RULE}`);
  if (input.length > MAX_BASE_URL_LENGTH) return refuse(`The API address is longer than ${MAX_BASE_URL_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(input)) return refuse('The API address contains spaces or control characters.');
  if (input.includes('\\')) return refuse('The API address contains a backslash.');

  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(input);
  if (!m) return refuse(RULE);
  const scheme = m[1]!.toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') return refuse(`${RULE} This one starts with ${scheme}:.`);
  if (!m[2]!.startsWith('//')) return refuse(`${RULE} The address must have // after ${scheme}:.`);

  const afterSlashes = m[2]!.slice(2);
  const end = afterSlashes.search(/[/?#]/);
  const authority = end === -1 ? afterSlashes : afterSlashes.slice(0, end);
  const rest = end === -1 ? '' : afterSlashes.slice(end);
  if (authority.includes('@')) return refuse('The API address must not contain a user name or password (the part before @). The key is sent separately.');
  if (authority.includes('%')) return refuse('The API address must write its host plainly, without %-escapes.');

  // Split host and port (an IPv6 host is in brackets).
  let host: string;
  let port: string | null;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close === -1) return refuse('The API address has an unclosed [ in its host.');
    host = authority.slice(0, close + 1);
    const after = authority.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return refuse('The API address has something unexpected after its host.');
    port = after === '' ? null : after.slice(1);
  } else {
    const colon = authority.indexOf(':');
    host = colon === -1 ? authority : authority.slice(0, colon);
    port = colon === -1 ? null : authority.slice(colon + 1);
  }
  if (host === '') return refuse('The API address has no host.');
  if (port !== null && !/^\d{1,5}$/.test(port)) return refuse('The API address has a port that is not a number.');
  if (host.endsWith('.')) return refuse('The API address has a dot at the end of its host; remove it.');

  if (rest.includes('?') || rest.includes('#')) return refuse('The API address must not have a query (?…) or a fragment (#…).');
  if (!/^[A-Za-z0-9._~/-]*$/.test(rest)) return refuse('The API address has a path with characters other than letters, digits and . _ ~ / -.');
  if (rest.split('/').some((s) => s === '.' || s === '..')) return refuse('The API address has . or .. in its path.');
  if (/sk_(live|test)_/i.test(rest)) return refuse('The API address must not contain an API key. The key is sent separately.');

  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('The API address is not a valid web address.');
  }
  // What a person reads must be what the key goes to: `0x7f000001`, `127.1`,
  // `[0::1]` or a Unicode name the parser rewrites are refused.
  if (url.hostname !== host.toLowerCase()) return refuse(`The API address must write its host plainly (it reads as ${url.hostname}).`);
  if (url.username || url.password || url.search || url.hash) return refuse('The API address must not contain a user name, password, query or fragment.');

  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return refuse(
      `http:// sends the key unencrypted, so it is allowed only for this computer (localhost, 127.x.x.x or [::1]), for the simulator. Use https://${url.host} instead.`,
    );
  }
  const origin = url.origin;
  return { ok: true, url: origin + url.pathname.replace(/\/+$/, ''), origin };
}

/** The origin of the default API (https://api.trakkr.ai). */
export const DEFAULT_API_ORIGIN = new URL(DEFAULT_BASE_URL).origin;
