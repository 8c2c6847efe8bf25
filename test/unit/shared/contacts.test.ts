import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isEmailAddress, parseContact, parseContacts, sameAddress } from '../../../shared/contacts';

describe('parseContact', () => {
  it('reads a plain address', () => {
    expect(parseContact('jane.doe@wired.com')).toEqual({
      raw: 'jane.doe@wired.com',
      email: 'jane.doe@wired.com',
      identity: 'jane.doe@wired.com',
      catchAll: false,
      valid: true,
      domain: 'wired.com',
    });
  });

  it("flags a catch-all by its ' CATCH' suffix and strips it", () => {
    const c = parseContact('editor@wired.com CATCH');
    expect(c.email).toBe('editor@wired.com');
    expect(c.catchAll).toBe(true);
    expect(c.valid).toBe(true);
  });

  it('trims entries, also around the suffix; the domain is lower-cased, the local part kept as written', () => {
    const c = parseContact('  Editor@Wired.com   CATCH  ');
    expect(c.email).toBe('Editor@wired.com');
    expect(c.identity).toBe('editor@wired.com');
    expect(c.domain).toBe('wired.com');
    expect(c.catchAll).toBe(true);
  });

  it('keeps an entry that is not an address, flagged invalid', () => {
    for (const bad of ['n/a', 'jane(at)wired.com', 'jane@', '@wired.com', 'jane@wired', 'a b@wired.com', 'jane@@wired.com', 'jane@-wired.com']) {
      const c = parseContact(bad);
      expect(c.valid, bad).toBe(false);
      expect(c.email).toBe(bad.trim());
      expect(c.domain).toBe('');
    }
  });

  it('does not take CATCH inside an address as the suffix', () => {
    expect(parseContact('CATCH@wired.com').catchAll).toBe(false);
    expect(parseContact('editorCATCH@wired.com').catchAll).toBe(false);
    expect(parseContact('editor@wired.com catch').catchAll).toBe(false);
  });
});

describe('parseContacts', () => {
  it('dedupes case-insensitively and drops empty entries', () => {
    const list = parseContacts(['jane@wired.com', ' JANE@WIRED.COM ', '', '   ', 'tips@wired.com CATCH']);
    expect(list.map((c) => c.email)).toEqual(['jane@wired.com', 'tips@wired.com']);
  });

  it('counts an address as catch-all only if every mention says so', () => {
    expect(parseContacts(['tips@wired.com CATCH', 'tips@wired.com'])[0]?.catchAll).toBe(false);
    expect(parseContacts(['tips@wired.com CATCH', 'TIPS@wired.com CATCH'])[0]?.catchAll).toBe(true);
  });

  it('accepts anything as input without throwing', () => {
    expect(parseContacts(undefined)).toEqual([]);
    expect(parseContacts('jane@wired.com')).toEqual([]);
    expect(parseContacts([1, null, { a: 1 }, 'jane@wired.com']).map((c) => c.email)).toEqual(['jane@wired.com']);
  });
});

describe('contact parsing, properties', () => {
  const address = fc.emailAddress().filter((e) => isEmailAddress(e));

  it('any valid address round-trips, with or without the suffix and padding', () => {
    fc.assert(
      fc.property(
        address,
        fc.boolean(),
        fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 }),
        fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 }),
        (email, catchAll, pre, post) => {
          const c = parseContact(`${pre}${email}${catchAll ? ' CATCH' : ''}${post}`);
          expect(c.email).toBe(email);
          expect(c.catchAll).toBe(catchAll);
          expect(c.valid).toBe(true);
          expect(c.identity).toBe(email.toLowerCase());
        },
      ),
    );
  });

  it('identity ignores case: a list of one address in many cases parses to one contact', () => {
    fc.assert(
      fc.property(address, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), (email, flips) => {
        const variants = flips.map((up) => (up ? email.toUpperCase() : email.toLowerCase()));
        expect(parseContacts(variants)).toHaveLength(1);
        expect(sameAddress(variants[0]!, email)).toBe(true);
      }),
    );
  });

  it('never throws and never loses a non-empty entry that differs in identity', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (entries) => {
        const parsed = parseContacts(entries);
        const identities = new Set(entries.filter((e) => e.trim() !== '').map((e) => parseContact(e).identity));
        expect(parsed).toHaveLength(identities.size);
        for (const c of parsed) expect(c.email).toBe(c.email.trim());
      }),
    );
  });
});

describe('one identity rule in JavaScript and in SQL', () => {
  it("every valid address's identity is what SQLite's lower() gives (ASCII only), so the cache's SQL compares addresses as the app does", async () => {
    const { default: Database } = await import('better-sqlite3');
    const { addressIdentity } = await import('../../../shared/contacts');
    const db = new Database(':memory:');
    const lower = db.prepare('SELECT lower(?) AS v').pluck();
    try {
      // Upper-case letters beyond ASCII (which SQLite's lower() leaves as they are) are never part of a valid address.
      for (const s of ['ÉLISE@lemonde.fr', 'élise@LEMONDE.FR', 'ANA@WİRED.COM', 'KATE@x.com'.replace('K', '\u212A')]) expect(isEmailAddress(s), s).toBe(false);
      fc.assert(
        fc.property(fc.emailAddress(), fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), (email, upper) => {
          const mixed = [...email].map((ch, i) => (upper[i % upper.length] ? ch.toUpperCase() : ch)).join('');
          if (!isEmailAddress(mixed)) return;
          expect(lower.get(mixed)).toBe(addressIdentity(mixed));
        }),
        { numRuns: 500 },
      );
    } finally {
      db.close();
    }
  });
});
