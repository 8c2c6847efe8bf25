// Which links may leave the app: only http(s), no credentials, within the
// length Windows' ShellExecute accepts. Everything else is refused with a reason.
export const MAX_URL_LENGTH = 2081;

export type LinkCheck = { ok: true; url: string } | { ok: false; reason: string };

export function checkExternalUrl(input: string): LinkCheck {
  const text = input.trim();
  if (text.length === 0) return { ok: false, reason: 'The link is empty.' };
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: `The link is longer than ${MAX_URL_LENGTH.toLocaleString('en-US')} characters.` };
  if (text.startsWith('//') || text.startsWith('\\\\')) return { ok: false, reason: 'The link has no scheme (http or https).' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'The link is not a valid web address.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: `Only web links (http, https) open from the app; this one is ${url.protocol.replace(/:$/, '')}.` };
  if (url.username || url.password) return { ok: false, reason: 'The link carries a user name or password.' };
  if (!url.hostname) return { ok: false, reason: 'The link has no host.' };
  return { ok: true, url: url.href };
}

/** mailto: links are built by the app itself (shared/outreach.ts); this only checks their shape and length. */
export function checkMailto(input: string): LinkCheck {
  if (!input.startsWith('mailto:')) return { ok: false, reason: 'Not a mail link.' };
  if (input.length > MAX_URL_LENGTH) return { ok: false, reason: 'The mail link is too long.' };
  return { ok: true, url: input };
}
