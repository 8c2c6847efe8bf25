import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { composeLink, MAIL_VIA, pickRecipients, type MailVia } from '../../../shared/mail-links';
import { pythonParseLinks } from '../../support/readers';
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
      inLink: { to: pitch.to, bcc: [], subject: true, body: true },
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
      inLink: { to: pitch.to, bcc: [], subject: true, body: true },
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

  it('the messages read as sentences for every way of sending: "an Outlook link", "the mail link"', () => {
    const body = 'A long pitch line with data. '.repeat(100);
    expect(composeLink('outlook', { ...pitch, body }).message).toMatch(/^The pitch is too long for an Outlook link \(/);
    expect(composeLink('outlook-personal', { ...pitch, body }).message).toMatch(/^The pitch is too long for an Outlook\.com link \(/);
    expect(composeLink('default', { ...pitch, body }).message).toMatch(/^The pitch is too long for a mail link \(/);
    const huge = `${'x'.repeat(2_100)}@wired.com`;
    expect(() => composeLink('default', { to: [huge], subject: '', body: '' })).toThrow(/^The mail link cannot hold even one of these addresses\.$/);
    expect(() => composeLink('gmail', { to: [huge], subject: '', body: '' })).toThrow(/^The Gmail link cannot hold/);
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

describe('links that never lie', () => {
  const many = Array.from({ length: 60 }, (_, i) => `journalist.number${i}@outlet${i}.example`);
  const body = 'A long pitch line with data. '.repeat(40);

  it('many recipients: the link holds the first addresses whole (never cut inside one) and the subject; the rest and the body are copied, and the message says which', () => {
    for (const via of MAIL_VIA) {
      const r = composeLink(via, { to: many, subject: 'Cold brew data', body });
      expect(r.url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
      const k = r.inLink.to.length;
      expect(k).toBeGreaterThan(0);
      expect(k).toBeLessThan(many.length);
      expect(r.inLink.to).toEqual(many.slice(0, k));
      expect(r.inLink.subject).toBe(true);
      const [parsed] = pythonParseLinks([r.url]);
      const to = via === 'default' ? parsed!.path : parsed!.query.to![0]!;
      expect(to.split(',')).toEqual(many.slice(0, k));
      expect(parsed!.query[via === 'gmail' ? 'su' : 'subject']).toEqual(['Cold brew data']);
      expect(r.clipboard).toBe(`To (add these addresses too): ${many.slice(k).join(', ')}\n\n${body}`);
      expect(r.message).toContain(
        `opens with ${k} of the 60 addresses and the subject; copied to the clipboard: the other ${60 - k} addresses (paste them into To) and the body`,
      );
    }
  });

  it('shared inboxes in Bcc: in every link, read back by Python; past the limit they are left out (whole) before any To address, copied under Bcc, and said', () => {
    const bcc = ['press@wired.com', 'tips@wired.com'];
    for (const via of MAIL_VIA) {
      const short = composeLink(via, { to: ['ana@wired.com'], bcc, subject: 'Cold brew', body: 'Hi' });
      expect(short.inLink).toEqual({ to: ['ana@wired.com'], bcc, subject: true, body: true });
      const [p] = pythonParseLinks([short.url]);
      expect(via === 'default' ? p!.path : p!.query.to![0]).toBe('ana@wired.com');
      expect(p!.query.bcc).toEqual([bcc.join(',')]);
      // Many shared inboxes and a long body: the person stays in To; the Bcc addresses that do not fit go to the clipboard.
      const shared = [...many, ...many].map((a, i) => a.replace('journalist.', `desk${i}.`));
      const long = composeLink(via, { to: ['ana@wired.com'], bcc: shared, subject: 'Cold brew', body });
      expect(long.url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
      expect(long.inLink.to).toEqual(['ana@wired.com']);
      const k = long.inLink.bcc.length;
      expect(k).toBeGreaterThan(0);
      expect(k).toBeLessThan(shared.length);
      expect(long.inLink.bcc).toEqual(shared.slice(0, k));
      const [q] = pythonParseLinks([long.url]);
      expect(q!.query.bcc![0]!.split(',')).toEqual(shared.slice(0, k));
      expect(long.clipboard).toBe(`Bcc (add these addresses too): ${shared.slice(k).join(', ')}\n\n${body}`);
      expect(long.message).toContain(`opens with ${1 + k} of the ${1 + shared.length} addresses and the subject`);
      expect(long.message).toContain(`the other ${shared.length - k} Bcc addresses (paste them into Bcc) and the body`);
    }
  });

  it('a subject too long for any link is never dropped silently: it goes to the clipboard, and the message says so', () => {
    const subject = 'S'.repeat(3000);
    for (const via of MAIL_VIA) {
      const r = composeLink(via, { to: ['ana@wired.com'], subject, body: 'Hi' });
      expect(r.inLink).toEqual({ to: ['ana@wired.com'], bcc: [], subject: false, body: false });
      expect(r.clipboard).toBe(`Subject: ${subject}\n\nHi`);
      expect(r.message).toContain('copied to the clipboard: the subject and the body');
      expect(r.url).not.toMatch(/[?&](su|subject)=/);
    }
  });

  it('Outlook.com for personal accounts beside Outlook for work or school', () => {
    expect(
      composeLink('outlook-personal', pitch).url.startsWith(
        'https://outlook.live.com/mail/0/deeplink/compose?to=maya.okafor@wired.com,a%2Bb@wired.com&subject=',
      ),
    ).toBe(true);
    expect(composeLink('outlook', pitch).url.startsWith('https://outlook.office.com/mail/deeplink/compose?to=')).toBe(true);
  });

  it('a lone surrogate anywhere (address, subject, body) builds a link, on every path', () => {
    for (const via of MAIL_VIA) {
      const r = composeLink(via, { to: ['a\uD800@b.co'], subject: '\uDC00x', body: 'y\uD800' });
      expect(() => decodeURIComponent(r.url)).not.toThrow();
    }
    expect(mailtoLink(['a@b.co'], 'x\uD800', '\uDC00').url).toBe('mailto:a@b.co?subject=x%EF%BF%BD&body=%EF%BF%BD');
  });

  it("Python's urllib.parse reads every link back: the decoded subject and body are the text exactly, and with the clipboard nothing is missing", () => {
    const text = fc.string({ unit: 'binary', maxLength: 1500 });
    const cases = fc.sample(
      fc.record({
        via: fc.constantFrom(...MAIL_VIA),
        to: fc.array(fc.emailAddress(), { minLength: 1, maxLength: 30 }),
        subject: text.map((s) => s.slice(0, 300)),
        body: text,
      }),
      { numRuns: 400, seed: 22 },
    );
    const links = cases.map((c) => composeLink(c.via, c));
    const parsed = pythonParseLinks(links.map((l) => l.url));
    cases.forEach((c, i) => {
      const l = links[i]!;
      const p = parsed[i]!;
      const well = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
      const lines = (s: string) => (c.via === 'default' ? s.replace(/\r\n|\r|\n/g, '\r\n') : s.replace(/\r\n?/g, '\n'));
      expect(l.url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
      const to = c.via === 'default' ? p.path.split(',') : p.query.to![0]!.split(',');
      expect(to).toEqual(l.inLink.to);
      expect(l.inLink.to).toEqual(c.to.slice(0, l.inLink.to.length).map((a) => well(a.trim())));
      const subject = p.query[c.via === 'gmail' ? 'su' : 'subject'];
      if (l.inLink.subject && c.subject) expect(subject).toEqual([lines(well(c.subject))]);
      else expect(subject).toBeUndefined();
      if (l.inLink.body && c.body) expect(p.query.body).toEqual([lines(well(c.body))]);
      else expect(p.query.body).toBeUndefined();
      // Whatever the link does not carry is on the clipboard, as the message says.
      const left = c.to.slice(l.inLink.to.length);
      if (left.length) expect(l.clipboard).toContain(left.join(', '));
      if (c.subject && !l.inLink.subject) expect(l.clipboard).toContain(`Subject: ${well(c.subject)}`);
      if (c.body && !l.inLink.body) expect(l.clipboard!.endsWith(well(c.body))).toBe(true);
      if (l.clipboard === null) expect(l.message).toMatch(/^Opening/);
      else expect(l.message).toMatch(/copied/);
    });
  });
});
