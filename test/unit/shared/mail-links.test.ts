import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { composeLink, pickRecipients, type MailVia } from '../../../shared/mail-links';
import { checkExternalUrl, checkMailto, MAX_URL_LENGTH } from '../../../shared/links';
import { parseContacts } from '../../../shared/contacts';
import { mailtoLink } from '../../../shared/outreach';

const pitch = { to: ['maya.okafor@wired.com', 'a+b@wired.com'], subject: 'Cold brew data & a quote?', body: "Hi Maya,\n\nIt's 100% (really) worth it!\r\nSam" };

describe('composeLink', () => {
  it('default: the mailto link of shared/outreach.ts (RFC 6068)', () => {
    const r = composeLink('default', pitch);
    expect(r).toEqual({
      url: mailtoLink(pitch.to, pitch.subject, pitch.body).url,
      bodyLeftOut: false,
      message: 'Opening your mail app.',
      inLink: { to: pitch.to, subject: true, body: true },
      clipboard: null,
    });
    expect(r.url).toBe(
      "mailto:maya.okafor@wired.com,a%2Bb@wired.com?subject=Cold%20brew%20data%20%26%20a%20quote%3F&body=Hi%20Maya%2C%0D%0A%0D%0AIt's%20100%25%20(really)%20worth%20it!%0D%0ASam",
    );
    expect(checkMailto(r.url).ok).toBe(true);
  });

  it('Gmail: its compose URL with to, su and body; spaces %20, line breaks %0A', () => {
    const r = composeLink('gmail', pitch);
    expect(r).toEqual({
      url: 'https://mail.google.com/mail/?view=cm&fs=1&to=maya.okafor@wired.com,a%2Bb@wired.com&su=Cold%20brew%20data%20%26%20a%20quote%3F&body=Hi%20Maya%2C%0A%0AIt%27s%20100%25%20%28really%29%20worth%20it%21%0ASam',
      bodyLeftOut: false,
      message: 'Opening Gmail in your browser.',
      inLink: { to: pitch.to, subject: true, body: true },
      clipboard: null,
    });
    const u = new URL(r.url);
    expect(u.searchParams.get('to')).toBe('maya.okafor@wired.com,a+b@wired.com');
    expect(u.searchParams.get('su')).toBe(pitch.subject);
    expect(u.searchParams.get('body')).toBe("Hi Maya,\n\nIt's 100% (really) worth it!\nSam");
  });

  it('Outlook on the web: its compose deep link', () => {
    const r = composeLink('outlook', pitch);
    expect(
      r.url.startsWith(
        'https://outlook.office.com/mail/deeplink/compose?to=maya.okafor@wired.com,a%2Bb@wired.com&subject=Cold%20brew%20data%20%26%20a%20quote%3F&body=Hi%20Maya',
      ),
    ).toBe(true);
    expect(r).toMatchObject({ bodyLeftOut: false, message: 'Opening Outlook in your browser.' });
    expect(new URL(r.url).searchParams.get('body')).toBe("Hi Maya,\n\nIt's 100% (really) worth it!\nSam");
  });

  it('what is checked is what opens: the URL parser gives a web link back unchanged', () => {
    for (const via of ['gmail', 'outlook'] as const) {
      const r = composeLink(via, pitch);
      expect(checkExternalUrl(r.url)).toEqual({ ok: true, url: r.url });
    }
  });

  it('a body too long for a link is left out, and the message says to paste it', () => {
    const body = 'A long pitch line with data. '.repeat(100);
    for (const via of ['default', 'gmail', 'outlook'] as const) {
      const r = composeLink(via, { ...pitch, body });
      expect(r.bodyLeftOut, via).toBe(true);
      expect(r.url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
      expect(r.url).not.toContain('body=');
      expect(r.url).toContain(via === 'gmail' ? 'su=Cold%20brew' : 'subject=Cold%20brew');
      expect(r.message).toMatch(/too long/);
      expect(r.message).toMatch(/copied, so paste it in\.$/);
    }
    expect(composeLink('gmail', { ...pitch, body }).message).toBe(
      `The pitch is too long for a Gmail link (${gmailLength(body).toLocaleString('en-US')} characters; the limit is 2,081). Gmail opens with both addresses and the subject; the body has been copied, so paste it in.`,
    );
    // One address: "the address"; what was copied is the body alone, exactly.
    const one = composeLink('gmail', { ...pitch, to: ['maya.okafor@wired.com'], body });
    expect(one.message).toMatch(/Gmail opens with the address and the subject; the body has been copied, so paste it in\.$/);
    expect(one).toMatchObject({ clipboard: body, inLink: { to: ['maya.okafor@wired.com'], subject: true, body: false } });
  });

  it('the longest body that fits is kept; one character more is left out', () => {
    const base = composeLink('gmail', { ...pitch, body: 'x' }).url.length - 1;
    const fits = 'x'.repeat(MAX_URL_LENGTH - base);
    expect(composeLink('gmail', { ...pitch, body: fits })).toMatchObject({ bodyLeftOut: false });
    expect(composeLink('gmail', { ...pitch, body: fits }).url).toHaveLength(MAX_URL_LENGTH);
    expect(composeLink('gmail', { ...pitch, body: `${fits}x` })).toMatchObject({ bodyLeftOut: true });
  });

  it('an empty subject or body is left out of a web link; a lone surrogate does not throw', () => {
    expect(composeLink('gmail', { to: ['a@b.co'], subject: '', body: '' }).url).toBe('https://mail.google.com/mail/?view=cm&fs=1&to=a@b.co');
    const r = composeLink('outlook', { to: ['a@b.co'], subject: 'x\uD800', body: '\uDC00y' });
    expect(new URL(r.url).searchParams.get('subject')).toBe('x\uFFFD');
    expect(composeLink('default', { to: ['a@b.co'], subject: 'x\uD800', body: 'y' }).url).toBe('mailto:a@b.co?subject=x%EF%BF%BD&body=y');
  });

  it('every link passes main’s checks, fits, and carries the body exactly when it says so', () => {
    const text = fc.string({ unit: 'binary', maxLength: 1200 });
    fc.assert(
      fc.property(
        fc.constantFrom<MailVia>('default', 'gmail', 'outlook'),
        fc.array(fc.emailAddress(), { minLength: 1, maxLength: 3 }),
        text.map((s) => s.slice(0, 80)),
        text,
        (via, to, subject, body) => {
          const r = composeLink(via, { to, subject, body });
          expect(r.url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
          if (via === 'default') {
            expect(checkMailto(r.url).ok).toBe(true);
            if (!r.bodyLeftOut && body) expect(decodeURIComponent(r.url.split('body=')[1]!)).toBe(body.replace(/\r\n|\r|\n/g, '\r\n'));
          } else {
            expect(checkExternalUrl(r.url)).toEqual({ ok: true, url: r.url });
            const params = new URL(r.url).searchParams;
            expect(params.get('to')).toBe(to.join(','));
            if (subject) expect(params.get(via === 'gmail' ? 'su' : 'subject')).toBe(subject.replace(/\r\n?/g, '\n'));
            if (r.bodyLeftOut) expect(params.has('body')).toBe(false);
            else if (body) expect(params.get('body')).toBe(body.replace(/\r\n?/g, '\n'));
          }
          if (r.bodyLeftOut) expect(r.message).toMatch(/copied/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** The full Gmail link's length for `pitch` with this body (plain text: nothing encodeURIComponent leaves alone needs more), as the message states it. */
function gmailLength(body: string): number {
  return `https://mail.google.com/mail/?view=cm&fs=1&to=maya.okafor@wired.com,a%2Bb@wired.com&su=Cold%20brew%20data%20%26%20a%20quote%3F&body=${encodeURIComponent(body)}`
    .length;
}

describe('pickRecipients', () => {
  it('every valid address once; personal ones chosen; catch-alls and (with a person) role addresses offered, not chosen; invalid never', () => {
    const contacts = parseContacts([
      'maya.okafor@wired.com',
      'editor@wired.com CATCH',
      'press@wired.com',
      'n/a',
      'maya(at)wired.com',
      ' MAYA.OKAFOR@WIRED.COM ',
      'mokafor@wired.com',
    ]);
    expect(pickRecipients(contacts)).toEqual([
      { email: 'maya.okafor@wired.com', catchAll: false, role: false, selected: true },
      { email: 'editor@wired.com', catchAll: true, role: true, selected: false },
      { email: 'press@wired.com', catchAll: false, role: true, selected: false },
      { email: 'mokafor@wired.com', catchAll: false, role: false, selected: true },
    ]);
  });

  it('role addresses are chosen when there is no personal one; a catch-all never', () => {
    expect(pickRecipients(parseContacts(['tips@wired.com CATCH', 'press@wired.com', 'news@wired.com']))).toEqual([
      { email: 'tips@wired.com', catchAll: true, role: true, selected: false },
      { email: 'press@wired.com', catchAll: false, role: true, selected: true },
      { email: 'news@wired.com', catchAll: false, role: true, selected: true },
    ]);
    expect(pickRecipients(parseContacts(['maya@wired.com CATCH'])).map((r) => r.selected)).toEqual([false]);
    expect(pickRecipients([])).toEqual([]);
  });

  it('an excluded address (the do-not-contact list) is never offered', () => {
    const contacts = parseContacts(['maya@wired.com', 'press@wired.com']);
    expect(pickRecipients(contacts, { exclude: (c) => c.identity === 'maya@wired.com' })).toEqual([
      { email: 'press@wired.com', catchAll: false, role: true, selected: true },
    ]);
  });

  it('properties: invalid never in, catch-all never chosen, role never chosen beside a person, each address once', () => {
    const entry = fc.oneof(
      fc.emailAddress(),
      fc.emailAddress().map((e) => `${e} CATCH`),
      fc.constantFrom('press@wired.com', 'tips@wired.com CATCH', 'Info@Wired.com', 'n/a', 'x(at)y.com', ' Maya@wired.com ', 'maya@WIRED.com CATCH'),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const contacts = parseContacts(entries);
        const picked = pickRecipients(contacts);
        const valid = contacts.filter((c) => c.valid);
        expect(picked.map((p) => p.email)).toEqual(valid.map((c) => c.email));
        expect(new Set(picked.map((p) => p.email.toLowerCase())).size).toBe(picked.length);
        const personal = picked.some((p) => !p.catchAll && !p.role);
        for (const p of picked) {
          if (p.catchAll) expect(p.selected).toBe(false);
          else if (p.role) expect(p.selected).toBe(!personal);
          else expect(p.selected).toBe(true);
        }
      }),
    );
  });
});
