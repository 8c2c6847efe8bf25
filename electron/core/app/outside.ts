// What leaves the app for the rest of the computer: http(s) links, mail (the pitch copied when too
// long for a mailto: link) and the clipboard; checked here, then handed to main through the Platform.
import type { ContractHandlers, ContractResults } from '../../../shared/contract';
import { checkExternalUrl, checkMailto } from '../../../shared/links';
import { composeLink } from '../../../shared/mail-links';
import type { Platform } from './platform';

export async function openLink(platform: Platform, url: string): Promise<ContractResults['links:open']> {
  const c = checkExternalUrl(url);
  if (!c.ok) return { opened: false, reason: c.reason };
  await platform.openExternal(c.url);
  return { opened: true };
}

export async function openMail(platform: Platform, emails: string[], subject?: string, body?: string): Promise<ContractResults['mail:open']> {
  const m = composeLink('default', { to: emails, subject: subject ?? '', body: body ?? '' });
  const c = checkMailto(m.url);
  if (!c.ok) return { opened: false, message: c.reason, copiedBody: false };
  // What did not fit (the body, addresses, the subject) is copied, and the message says what is where.
  if (m.clipboard !== null) platform.writeClipboard(m.clipboard);
  await platform.openExternal(c.url);
  return { opened: true, message: m.message, copiedBody: m.bodyLeftOut };
}

export function writeClipboard(platform: Platform, text: string): ContractResults['clipboard:write'] {
  platform.writeClipboard(text);
  return { written: true };
}

/** The contract's outside slice (shared/contract/outside.ts): each checked here, then done by main through the Platform. */
export function outsideHandlers(platform: Platform): Pick<ContractHandlers, 'clipboard:write' | 'links:open' | 'mail:open'> {
  return {
    'clipboard:write': ({ text }) => writeClipboard(platform, text),
    'links:open': ({ url }) => openLink(platform, url),
    'mail:open': ({ emails, subject, body }) => openMail(platform, emails, subject, body),
  };
}
