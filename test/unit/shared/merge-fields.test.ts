import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  authorNames,
  fieldNamed,
  fieldValues,
  fillDraft,
  fillText,
  findTokens,
  isRoleAddress,
  MERGE_FIELDS,
  ROLE_LOCAL_PARTS,
  type MergeContext,
  type MergeField,
} from '../../../shared/merge-fields';

const personal: MergeContext = {
  author_name: 'Maya Okafor',
  domain: 'www.wired.com',
  title: 'The 12 best cold brew makers in 2026',
  url: 'https://www.wired.com/best-cold-brew',
  brand: 'Northwind Coffee',
  contact: { email: 'maya.okafor@wired.com', catchAll: false },
  sender_name: 'Sam Carter',
};

describe('findTokens', () => {
  it('finds braces, double braces and bracket placeholders, with where they are and the field', () => {
    const text = 'Hi {first_name}, [Name] and {{ sender_name }} at [Publication]: [Your Title] {nope}';
    expect(findTokens(text)).toEqual([
      { token: '{first_name}', start: 3, end: 15, field: 'first_name' },
      { token: '[Name]', start: 17, end: 23, field: 'first_name' },
      { token: '{{ sender_name }}', start: 28, end: 45, field: 'sender_name' },
      { token: '[Publication]', start: 49, end: 62, field: 'publication' },
      { token: '[Your Title]', start: 64, end: 76, field: null },
      { token: '{nope}', start: 77, end: 83, field: null },
    ]);
  });

  it('maps the obvious bracket placeholders to fields, whatever their case or spelling', () => {
    const cases: [string, MergeField | null][] = [
      ['[Name]', 'first_name'],
      ['[First Name]', 'first_name'],
      ['[FIRST NAME]', 'first_name'],
      ["[Journalist's Name]", 'first_name'],
      ['[Journalist’s Name]', 'first_name'],
      ['[Last Name]', 'last_name'],
      ['[Author Name]', 'author_name'],
      ['[Publication]', 'publication'],
      ['[Publication Name]', 'publication'],
      ['[Outlet]', 'publication'],
      ['[Article Title]', 'article_title'],
      ['[Article URL]', 'article_url'],
      ['[Link]', 'article_url'],
      ['[Brand]', 'brand'],
      ['[Company Name]', 'brand'],
      ['[Your Name]', 'sender_name'],
      ['[Your Title]', null],
      ['[Insert statistic]', null],
      ['{firstName}', 'first_name'],
      ['{First_Name}', 'first_name'],
      ['{article.title}', 'article_title'],
      ['{{author_name}}', 'author_name'],
      ['{company_size}', null],
    ];
    for (const [token, field] of cases) expect(findTokens(`x ${token} y`), token).toEqual([{ token, start: 2, end: 2 + token.length, field }]);
    for (const f of MERGE_FIELDS) expect(fieldNamed(f)).toBe(f);
  });

  it('does not take references, Markdown links, lower-case brackets or line-spanning text for placeholders', () => {
    expect(findTokens('as shown [1], see [the study](https://x.org), he said [sic] {\nfirst_name}')).toEqual([]);
    expect(findTokens('{ }, {}, [], [ ]')).toEqual([]);
  });

  it('finds each kind of token wherever it stands in other text', () => {
    fc.assert(
      fc.property(fc.constantFrom('[Name]', '[A]', '[Your-Company_x]', '{{x.y-z}}', '{ab}', '{first_name}', '{{ 1 }}'), fc.string(), (token, around) => {
        const text = `${around.replace(/[[\]{}()]/g, '')} ${token} `;
        expect(findTokens(text).map((t) => t.token)).toContain(token);
      }),
    );
  });
});

describe('fieldValues', () => {
  it('fills every field for a personal address', () => {
    expect(fieldValues(personal)).toEqual({
      first_name: 'Maya',
      last_name: 'Okafor',
      author_name: 'Maya Okafor',
      publication: 'wired.com',
      article_title: 'The 12 best cold brew makers in 2026',
      article_url: 'https://www.wired.com/best-cold-brew',
      brand: 'Northwind Coffee',
      sender_name: 'Sam Carter',
    });
  });

  it('a known publication name wins over the domain; the domain loses www., a scheme and a path', () => {
    expect(fieldValues({ ...personal, publication: 'WIRED' }).publication).toBe('WIRED');
    expect(fieldValues({ domain: 'https://WWW.Wired.com/story/x' }).publication).toBe('wired.com');
    expect(fieldValues({ domain: 'www2.bbc.co.uk' }).publication).toBe('bbc.co.uk');
    expect(fieldValues({ domain: '  ' }).publication).toBeNull();
  });

  it('never addresses a catch-all or role inbox by the author’s name', () => {
    for (const contact of [
      { email: 'editor@wired.com', catchAll: true },
      { email: 'maya.okafor@wired.com', catchAll: true },
      { email: 'press@wired.com', catchAll: false },
      { email: 'Tips+cold-brew@Wired.com', catchAll: false },
      { email: 'no-reply@wired.com', catchAll: false },
    ]) {
      const v = fieldValues({ ...personal, contact });
      expect(v.first_name, contact.email).toBeNull();
      expect(v.last_name, contact.email).toBeNull();
      expect(v.author_name).toBe('Maya Okafor');
    }
  });

  it('never guesses a name from an address', () => {
    const v = fieldValues({ author_name: null, contact: { email: 'maya.okafor@wired.com', catchAll: false } });
    expect(v.first_name).toBeNull();
    expect(v.last_name).toBeNull();
    expect(v.author_name).toBeNull();
  });

  it('with no address chosen yet, the author’s name is used', () => {
    expect(fieldValues({ author_name: 'Maya Okafor' })).toMatchObject({ first_name: 'Maya', last_name: 'Okafor' });
  });
});

describe('authorNames', () => {
  it('first word and the rest, after a title and before a credential', () => {
    expect(authorNames('Ana María Souza')).toEqual({ first: 'Ana', last: 'María Souza' });
    expect(authorNames("  Sean   O'Neil ")).toEqual({ first: 'Sean', last: "O'Neil" });
    expect(authorNames('Dr. Ana Souza, PhD')).toEqual({ first: 'Ana', last: 'Souza' });
    expect(authorNames('By Ana Souza')).toEqual({ first: 'Ana', last: 'Souza' });
    expect(authorNames('Ana Souza MD')).toEqual({ first: 'Ana', last: 'Souza' });
    expect(authorNames('Zoë')).toEqual({ first: 'Zoë', last: null });
    expect(authorNames('Dr. Souza')).toEqual({ first: null, last: 'Souza' });
    expect(authorNames('A. Souza')).toEqual({ first: null, last: 'Souza' });
  });

  it('nothing for a byline that is not one person', () => {
    for (const byline of [
      'Staff',
      'WIRED Staff',
      'The Editorial Team',
      'Ana Souza and Ben Kim',
      'Ana Souza & Ben Kim',
      'Ana Souza, Ben Kim',
      'Ana; Ben',
      '@anasouza',
      'ana@wired.com',
      '',
      '   ',
      null,
      undefined,
    ]) {
      expect(authorNames(byline), String(byline)).toBeNull();
    }
  });
});

describe('isRoleAddress', () => {
  it('every listed local part, any case, with a +tag; not a person’s address', () => {
    for (const r of ROLE_LOCAL_PARTS) {
      expect(isRoleAddress(`${r}@wired.com`), r).toBe(true);
      expect(isRoleAddress(` ${r.toUpperCase()}+uk@Wired.com `), r).toBe(true);
    }
    for (const p of ['maya@wired.com', 'press.maya@wired.com', 'information@wired.com', 'ana.info@wired.com']) expect(isRoleAddress(p), p).toBe(false);
  });

  it('holds the role addresses the issue names', () => {
    const named = [
      'info',
      'press',
      'news',
      'editor',
      'editors',
      'hello',
      'contact',
      'team',
      'tips',
      'newsroom',
      'pr',
      'media',
      'office',
      'admin',
      'support',
      'sales',
      'marketing',
      'webmaster',
      'noreply',
      'no-reply',
    ];
    expect(ROLE_LOCAL_PARTS).toEqual(expect.arrayContaining(named));
  });
});

describe('fillText', () => {
  it('fills what it can, keeps the rest as written and lists it with its place in the original text', () => {
    const text = 'Hi {first_name},\n\nI read "{article_title}" on [Publication] ({article_url}).\n\n[Your Name]\n[Your Title]';
    const r = fillText(text, { ...personal, sender_name: null });
    expect(r.text).toBe(
      'Hi Maya,\n\nI read "The 12 best cold brew makers in 2026" on wired.com (https://www.wired.com/best-cold-brew).\n\n[Your Name]\n[Your Title]',
    );
    expect(r.unfilled).toEqual([
      { token: '[Your Name]', field: 'sender_name', index: text.indexOf('[Your Name]') },
      { token: '[Your Title]', field: null, index: text.indexOf('[Your Title]') },
    ]);
  });

  it('a catch-all address leaves {first_name} and [Name] unfilled, in place', () => {
    const r = fillText('Hi {first_name} / [Name] {last_name}', { ...personal, contact: { email: 'editor@wired.com', catchAll: true } });
    expect(r.text).toBe('Hi {first_name} / [Name] {last_name}');
    expect(r.unfilled.map((u) => [u.token, u.field, u.index])).toEqual([
      ['{first_name}', 'first_name', 3],
      ['[Name]', 'first_name', 18],
      ['{last_name}', 'last_name', 25],
    ]);
  });

  it('names of an object’s own machinery are unknown placeholders, never filled with "undefined"', () => {
    const text = '{constructor} [Constructor] {__proto__} {toString} {{hasOwnProperty}}';
    const r = fillText(text, personal);
    expect(r.text).toBe(text);
    expect(r.unfilled.map((u) => u.field)).toEqual([null, null, null, null, null]);
  });

  it('an empty or blank value is unfilled, never an empty string', () => {
    expect(fillText('{brand}!', { brand: '   ' })).toEqual({ text: '{brand}!', unfilled: [{ token: '{brand}', field: 'brand', index: 0 }] });
  });

  it('a value is inserted as it is: a token inside it is not filled, and $ patterns stay literal', () => {
    const r = fillText('{article_title} by {author_name}', { title: 'Why [Name] matters: {brand}', author_name: "$& $1 $' Ana", brand: 'Acme' });
    expect(r.text).toBe("Why [Name] matters: {brand} by $& $1 $' Ana");
    expect(r.unfilled).toEqual([]);
  });

  it('text without tokens comes back unchanged', () => {
    expect(fillText('Hi there,\n\nNo fields here: {} [] [1] {\n}', personal)).toEqual({ text: 'Hi there,\n\nNo fields here: {} [] [1] {\n}', unfilled: [] });
  });
});

describe('fillDraft', () => {
  it('fills subject and body and says which part each unfilled token is in', () => {
    const r = fillDraft('{brand} for your {publication} roundup, {first_name}?', 'Hi {first_name},\n\n[Your Title]', {
      ...personal,
      contact: { email: 'press@wired.com', catchAll: false },
    });
    expect(r.subject).toBe('Northwind Coffee for your wired.com roundup, {first_name}?');
    expect(r.body).toBe('Hi {first_name},\n\n[Your Title]');
    expect(r.unfilled).toEqual([
      { token: '{first_name}', field: 'first_name', index: 40, part: 'subject' },
      { token: '{first_name}', field: 'first_name', index: 3, part: 'body' },
      { token: '[Your Title]', field: null, index: 18, part: 'body' },
    ]);
  });
});

// ---- properties ---------------------------------------------------------------

/** Plain text that cannot form or touch a token. */
const plain = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/[[\]{}()]/g, ''));
const TOKENS: Record<string, MergeField | null> = {
  '{first_name}': 'first_name',
  '{{last_name}}': 'last_name',
  '{author_name}': 'author_name',
  '[Publication]': 'publication',
  '{article_title}': 'article_title',
  '[Article URL]': 'article_url',
  '{brand}': 'brand',
  '[Your Name]': 'sender_name',
  '[Name]': 'first_name',
  '[Your Title]': null,
  '{unknown_field}': null,
};
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const context = fc.record({
  author_name: maybe(fc.constantFrom('Maya Okafor', 'Zoë', 'Dr. Ana Souza', 'Staff', '{brand} [Name]')),
  domain: maybe(fc.domain()),
  publication: maybe(fc.string({ maxLength: 20 })),
  title: maybe(fc.string({ maxLength: 40 })),
  url: maybe(fc.webUrl()),
  brand: maybe(fc.string({ maxLength: 20 })),
  contact: maybe(
    fc.record({
      email: fc.oneof(
        fc.emailAddress(),
        fc.constantFrom(...ROLE_LOCAL_PARTS).map((r) => `${r}@x.com`),
      ),
      catchAll: fc.boolean(),
    }),
  ),
  sender_name: maybe(fc.string({ maxLength: 20 })),
});
const parts = fc.array(
  fc.oneof(
    plain.map((text) => ({ text, token: false })),
    fc.constantFrom(...Object.keys(TOKENS)).map((text) => ({ text, token: true })),
  ),
  { maxLength: 12 },
);

describe('fillText, properties', () => {
  it('never loses or changes text outside tokens; each token becomes its value or stays and is listed where it was', () => {
    fc.assert(
      fc.property(parts, context, (ps, ctx) => {
        // Two plain parts side by side are one run of text; tokens are what they are.
        const text = ps.map((p) => p.text).join('');
        const values = fieldValues(ctx);
        let expected = '';
        const unfilled: { token: string; index: number }[] = [];
        let at = 0;
        for (const p of ps) {
          const field = p.token ? TOKENS[p.text]! : undefined;
          const v = p.token && field ? values[field] : null;
          if (p.token && v === null) unfilled.push({ token: p.text, index: at });
          expected += p.token && v !== null ? v : p.text;
          at += p.text.length;
        }
        const r = fillText(text, ctx);
        expect(r.text).toBe(expected);
        expect(r.unfilled.map((u) => ({ token: u.token, index: u.index }))).toEqual(unfilled);
        for (const u of r.unfilled) expect(text.slice(u.index, u.index + u.token.length)).toBe(u.token);
      }),
    );
  });

  it('with nothing known, the text is unchanged and every token is listed', () => {
    fc.assert(
      fc.property(parts, (ps) => {
        const text = ps.map((p) => p.text).join('');
        const r = fillText(text, {});
        expect(r.text).toBe(text);
        expect(r.unfilled.map((u) => u.index)).toEqual(findTokens(text).map((t) => t.start));
      }),
    );
  });

  it('tokens never overlap and each is the text at its place', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        let end = 0;
        for (const t of findTokens(text)) {
          expect(t.start).toBeGreaterThanOrEqual(end);
          expect(text.slice(t.start, t.end)).toBe(t.token);
          end = t.end;
        }
      }),
    );
  });

  it('a first name is never filled for a catch-all or role address, whatever the author', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...ROLE_LOCAL_PARTS), fc.emailAddress(), fc.boolean(), (author, role, email, useRole) => {
        const contact = useRole ? { email: `${role}@outlet.com`, catchAll: false } : { email, catchAll: true };
        const r = fillText('Hi {first_name} [Name] {last_name},', { author_name: author, contact });
        expect(r.text).toBe('Hi {first_name} [Name] {last_name},');
        expect(r.unfilled).toHaveLength(3);
      }),
    );
  });

  it('a first name comes only from the author, never from the address', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        expect(fieldValues({ author_name: null, contact: { email, catchAll: false } }).first_name).toBeNull();
      }),
    );
  });
});
