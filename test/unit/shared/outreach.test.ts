import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseContacts } from '../../../shared/contacts';
import { findTokens } from '../../../shared/merge-fields';
import { MAILTO_MAX_LENGTH, copyGoodAddresses, copyPitch, mailtoEncode, mailtoLink } from '../../../shared/outreach';

describe('copying contacts', () => {
  const contacts = parseContacts(['ana@wired.com', 'tips@wired.com CATCH', 'n/a', 'bob@wired.com']);

  it('good addresses leave catch-alls out and say how many', () => {
    expect(copyGoodAddresses(contacts)).toEqual({
      text: 'ana@wired.com, bob@wired.com',
      count: 2,
      leftOutCatchAll: 1,
      leftOutBlocked: 0,
      invalid: 1,
      message: 'Copied 2 addresses; 1 catch-all address left out; 1 entry that is not an address.',
    });
  });
  it('an address on the do-not-contact list is never copied, and the count says so', () => {
    const marked = contacts.map((c) => ({ ...c, blocked: c.email === 'bob@wired.com' }));
    expect(copyGoodAddresses(marked)).toMatchObject({
      text: 'ana@wired.com',
      count: 1,
      leftOutBlocked: 1,
      message: 'Copied 1 address; 1 catch-all address left out; 1 address on your do-not-contact list left out; 1 entry that is not an address.',
    });
    // Asked to include catch-alls, a blocked one still stays out.
    const blockedCatchAll = contacts.map((c) => ({ ...c, blocked: c.catchAll }));
    expect(copyGoodAddresses(blockedCatchAll, { includeCatchAll: true })).toMatchObject({ text: 'ana@wired.com, bob@wired.com', leftOutBlocked: 1 });
  });
  it('catch-alls are included only when asked', () => {
    expect(copyGoodAddresses(contacts, { includeCatchAll: true })).toMatchObject({ text: 'ana@wired.com, tips@wired.com, bob@wired.com', leftOutCatchAll: 0 });
  });
  it('nothing to copy is said plainly', () => {
    expect(copyGoodAddresses(parseContacts(['x@y.com CATCH'])).message).toBe('No address to copy; 1 catch-all address left out.');
  });
  it('the pitch: subject and body', () => {
    expect(copyPitch('Hello', 'Body\r\nline')).toBe('Subject: Hello\n\nBody\nline');
    expect(copyPitch('', 'Body')).toBe('Body');
    expect(copyPitch(null, undefined)).toBe('');
  });
});

describe('mailto links (RFC 6068)', () => {
  it('encodes tricky text exactly: spaces as %20 (never +), & and + escaped, line breaks as %0D%0A', () => {
    const m = mailtoLink(['ana@wired.com'], 'a+b & c', 'Hi Ana,\nline two\r\nthree = 3?');
    expect(m.url).toBe('mailto:ana@wired.com?subject=a%2Bb%20%26%20c&body=Hi%20Ana%2C%0D%0Aline%20two%0D%0Athree%20%3D%203%3F');
    expect(m.tooLong).toBe(false);
  });
  it('several addresses go in the path, comma-separated; unusual characters are escaped', () => {
    expect(mailtoLink(['a@x.com', "o'neil+pr@y.org"]).url).toBe("mailto:a@x.com,o'neil%2Bpr@y.org");
  });
  it('past 2,081 characters it says so and drops the body (to be copied instead)', () => {
    const m = mailtoLink(['ana@wired.com'], 'Subject', 'x'.repeat(3000));
    expect(m.tooLong).toBe(true);
    expect(m.url).toBe('mailto:ana@wired.com?subject=Subject');
    expect(m.message).toContain('too long for a mail link');
    expect(m.message).toContain('the body has been copied');
  });
  it('property: any text decodes back to itself with CRLF line breaks, and the link is never longer than the limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme', maxLength: 3000 }), (subject, body) => {
        expect(decodeURIComponent(mailtoEncode(body))).toBe(body.replace(/\r\n|\r|\n/g, '\r\n'));
        expect(mailtoEncode(subject)).not.toMatch(/[+ ]/);
        expect(mailtoLink(['a@b.co'], subject, body).url.length).toBeLessThanOrEqual(MAILTO_MAX_LENGTH);
      }),
    );
  });
});

describe("placeholders (the export check reads them with the editor's findTokens)", () => {
  it('finds the usual leftovers and not ordinary brackets', () => {
    for (const t of ['Hi [Name],', 'Hi {{first_name}}', 'From {{ sender.name }}', 'Dear {company}', 'a {b} c'])
      expect(findTokens(t).length, t).toBeGreaterThan(0);
    for (const t of ['Hi Ana,', 'see [1]', 'JSON {"a":1}']) expect(findTokens(t), t).toEqual([]);
  });
});
