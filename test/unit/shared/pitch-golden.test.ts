// Golden files for filled pitches (test/fixtures/golden/pitch/): the text that
// goes out, as the service writes its pitches (electron/simulator/data.ts) and
// as a user edits them, filled for a personal address, a catch-all, a role
// address, a missing author, and the service's [Name]-style placeholders.
// UPDATE_GOLDEN=1 writes or rewrites them (then read the diff); without it a
// missing golden file fails, so a renamed or deleted one cannot pass silently.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/tmp';
import { fillDraft, findTokens, type MergeContext } from '../../../shared/merge-fields';
import { defaultFollowUp } from '../../../shared/follow-up';

const GOLDEN = 'test/fixtures/golden/pitch';
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** The filled subject and body as sent, then what stayed unfilled and where. */
function render(subject: string, body: string, ctx: MergeContext): string {
  const f = fillDraft(subject, body, ctx);
  const unfilled = f.unfilled.map((u) => `${u.part} ${u.index} ${u.token} -> ${u.field ?? 'unknown'}`);
  return `Subject: ${f.subject}\n\n${f.body}\n\n--- unfilled ---\n${unfilled.length ? unfilled.join('\n') : '(none)'}\n`;
}

/** Compare `got` with the golden file `name` in `dir`; with `update`, write it first. A missing file is a failure, not a pass. */
function golden(name: string, got: string, dir = GOLDEN, update = UPDATE) {
  const file = join(dir, name);
  if (update) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, got);
  }
  if (!existsSync(file)) throw new Error(`${file} is missing: run with UPDATE_GOLDEN=1 to write it, then read it`);
  expect(got, `${name} differs from its golden file (UPDATE_GOLDEN=1 to accept)`).toBe(readFileSync(file, 'utf8'));
}

const opportunity: MergeContext = {
  author_name: 'Maya Okafor',
  domain: 'www.wired.com',
  title: 'The 12 best cold brew makers in 2026',
  url: 'https://www.wired.com/gallery/best-cold-brew-makers',
  brand: 'Northwind Coffee',
  sender_name: 'Sam Carter',
};

/** A user's draft with merge fields, written from the service's pitch. */
const DRAFT = {
  subject: '{brand} for your cold brew roundup, {first_name}?',
  body: [
    'Hi {first_name},',
    'I read "{article_title}" on {publication} and really enjoyed how you broke down cold brew. Readers clearly trust your take.',
    "I'm reaching out from {brand}. We've been working on cold brew for a while, and our customers keep telling us the thing they struggle with most is finding honest comparisons. We'd love to be considered for the piece: we can share test units, data from 12,000 users, or a short expert quote.",
    'A few specifics that might help your readers:\n- Setup takes under 5 minutes\n- Independent reviews average 4.6/5\n- Pricing starts at $39',
    'The piece: {article_url}',
    'Best,\n{sender_name}\n{brand}',
  ].join('\n\n'),
};

/** The service's own text, with its square-bracket placeholders (simulator: "Hi [Name],", "{{sender_name}}"). */
const SERVICE = {
  subject: 'Northwind Coffee for your [Publication] roundup?',
  body: [
    'Hi [Name],',
    'I read "[Article Title]" on [Publication] and really enjoyed how you broke down specialty coffee. Readers clearly trust your take.',
    "I'm reaching out from [Company]. Happy to work around your schedule, and no pressure at all if it isn't a fit right now.",
    'Best,\n{{sender_name}}\n[Your Title], [Company]',
  ].join('\n\n'),
};

/** The one follow-up's own text (shared/follow-up.ts), from the pitch it follows. */
const FOLLOW_UP = defaultFollowUp({ subject: 'Northwind Coffee for your cold brew roundup?', body: DRAFT.body });

const cases: [string, string, string, MergeContext][] = [
  ['personal.txt', DRAFT.subject, DRAFT.body, { ...opportunity, contact: { email: 'maya.okafor@wired.com', catchAll: false } }],
  ['catch-all.txt', DRAFT.subject, DRAFT.body, { ...opportunity, contact: { email: 'editor@wired.com', catchAll: true } }],
  ['role-address.txt', DRAFT.subject, DRAFT.body, { ...opportunity, contact: { email: 'press@wired.com', catchAll: false } }],
  // No author and no sender name: a personal address does not give a first name (never guessed from it).
  [
    'no-author.txt',
    DRAFT.subject,
    DRAFT.body,
    { ...opportunity, author_name: null, sender_name: null, contact: { email: 'maya.okafor@wired.com', catchAll: false } },
  ],
  [
    'bracket-placeholders.txt',
    SERVICE.subject,
    SERVICE.body,
    { ...opportunity, author_name: 'Dr. Lena Schmidt', publication: 'WIRED', contact: { email: 'lena.schmidt@wired.com', catchAll: false } },
  ],
  ['follow-up.txt', FOLLOW_UP.subject, FOLLOW_UP.body, { ...opportunity, contact: { email: 'maya.okafor@wired.com', catchAll: false } }],
];

describe('filled pitches (golden files)', () => {
  for (const [name, subject, body, ctx] of cases) it(name, () => golden(name, render(subject, body, ctx)));

  it('a missing golden file fails unless UPDATE_GOLDEN=1, which writes it', () => {
    const tmp = tempDir();
    try {
      expect(() => golden('new.txt', 'text\n', tmp.dir, false)).toThrow(/new\.txt is missing: run with UPDATE_GOLDEN=1/);
      expect(existsSync(join(tmp.dir, 'new.txt'))).toBe(false);
      golden('new.txt', 'text\n', tmp.dir, true);
      expect(readFileSync(join(tmp.dir, 'new.txt'), 'utf8')).toBe('text\n');
      golden('new.txt', 'text\n', tmp.dir, false);
      expect(() => golden('new.txt', 'other\n', tmp.dir, false)).toThrow(/differs from its golden file/);
    } finally {
      tmp.cleanup();
    }
  });

  it('a personal address fills everything: nothing left for the export check to flag', () => {
    const f = fillDraft(DRAFT.subject, DRAFT.body, { ...opportunity, contact: { email: 'maya.okafor@wired.com', catchAll: false } });
    expect(f.unfilled).toEqual([]);
    expect([...findTokens(f.subject), ...findTokens(f.body)]).toEqual([]);
    expect(f.body.startsWith('Hi Maya,\n\n')).toBe(true);
  });

  it('a catch-all or role address leaves exactly the names unfilled, and the rest filled', () => {
    for (const contact of [
      { email: 'editor@wired.com', catchAll: true },
      { email: 'press@wired.com', catchAll: false },
    ]) {
      const f = fillDraft(DRAFT.subject, DRAFT.body, { ...opportunity, contact });
      expect(f.unfilled.map((u) => `${u.part}:${u.token}`)).toEqual(['subject:{first_name}', 'body:{first_name}']);
      expect(f.body).toContain('I read "The 12 best cold brew makers in 2026" on wired.com');
    }
  });
});
