// Merge fields in a draft: `{first_name}`, `{last_name}`, `{author_name}`,
// `{publication}`, `{article_title}`, `{article_url}`, `{brand}` and
// `{sender_name}`, and the square-bracket placeholders the service's own
// pitches hold (`[Name]`, `[Publication]`, …). Filled from the opportunity and
// the address chosen; a token that cannot be filled stays in the text as it was
// (so the editor can highlight it) and is listed, never dropped. Pure functions.
//
// Names are never guessed: a first and last name come only from the article's
// author, and not at all when the chosen address is a catch-all or a role
// address (info@, press@, …): whoever reads that inbox may not be the author,
// so "Hi Ana" would be a guess. Those fields then stay unfilled and are said.

export const MERGE_FIELDS = ['first_name', 'last_name', 'author_name', 'publication', 'article_title', 'article_url', 'brand', 'sender_name'] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

/** The local parts of role addresses: an inbox, not a person. */
export const ROLE_LOCAL_PARTS = [
  'info', 'press', 'news', 'newsdesk', 'editor', 'editors', 'editorial', 'hello', 'contact', 'team', 'tips', 'newsroom', 'pr', 'media',
  'office', 'admin', 'support', 'sales', 'marketing', 'webmaster', 'noreply', 'no-reply', 'letters', 'submissions', 'feedback',
] as const;

/** Is this a role address (info@, press@, …)? */
export function isRoleAddress(email: string): boolean {
  const local = email.trim().toLowerCase().split('@')[0] ?? '';
  return (ROLE_LOCAL_PARTS as readonly string[]).includes(local);
}

export interface MergeContext {
  author_name?: string | null;
  /** The outlet's domain. */
  domain?: string | null;
  /** The outlet's name, when one is known (else the domain stands for it). */
  publication?: string | null;
  title?: string | null;
  url?: string | null;
  brand?: string | null;
  /** The address the text goes to. */
  contact?: { email: string; catchAll: boolean } | null;
  /** The user's own name (Settings). */
  sender_name?: string | null;
}

/** Bracket placeholders the service writes, and the field each stands for. */
const BRACKETS: Record<string, MergeField> = {
  name: 'first_name',
  'first name': 'first_name',
  firstname: 'first_name',
  'last name': 'last_name',
  lastname: 'last_name',
  'author name': 'author_name',
  author: 'author_name',
  'journalist name': 'author_name',
  publication: 'publication',
  outlet: 'publication',
  'publication name': 'publication',
  site: 'publication',
  article: 'article_title',
  'article title': 'article_title',
  title: 'article_title',
  'article url': 'article_url',
  'article link': 'article_url',
  link: 'article_url',
  url: 'article_url',
  brand: 'brand',
  company: 'brand',
  'your company': 'brand',
  'your name': 'sender_name',
  'my name': 'sender_name',
  sender: 'sender_name',
};

/** A merge field, `{{first_name}}` or a bracket placeholder. */
const TOKEN = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}|\{([a-z_]{2,30})\}|\[([A-Z][A-Za-z _-]{0,30})\]/g;

export interface Token {
  /** The text as written: "{first_name}", "[Name]". */
  token: string;
  start: number;
  end: number;
  /** The field it stands for, or null (an unknown placeholder). */
  field: MergeField | null;
}

/** Every merge token in the text, with where it is and the field it stands for (for highlighting in the editor). */
export function findTokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const name = (m[1] ?? m[2] ?? '').toLowerCase();
    const bracket = m[3]?.trim().toLowerCase().replace(/\s+/g, ' ');
    const field = bracket !== undefined ? (BRACKETS[bracket] ?? null) : (MERGE_FIELDS as readonly string[]).includes(name) ? (name as MergeField) : null;
    out.push({ token: m[0], start: m.index, end: m.index + m[0].length, field });
  }
  return out;
}

const clean = (v: string | null | undefined): string | null => {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
};

/** Each field's value for this context, or null when it cannot be known. */
export function fieldValues(ctx: MergeContext): Record<MergeField, string | null> {
  const author = clean(ctx.author_name);
  const parts = (author ?? '').split(/\s+/).filter(Boolean);
  const inbox = ctx.contact ? ctx.contact.catchAll || isRoleAddress(ctx.contact.email) : false;
  const domain = clean(ctx.domain)?.replace(/^www\./i, '') ?? null;
  return {
    first_name: inbox || parts.length === 0 ? null : parts[0]!,
    last_name: inbox || parts.length < 2 ? null : parts.slice(1).join(' '),
    author_name: author,
    publication: clean(ctx.publication) ?? domain,
    article_title: clean(ctx.title),
    article_url: clean(ctx.url),
    brand: clean(ctx.brand),
    sender_name: clean(ctx.sender_name),
  };
}

export interface Unfilled {
  token: string;
  field: MergeField | null;
  /** Where it is in the text as written. */
  index: number;
}

/** Fill what can be filled; what cannot stays as written and is listed. */
export function fillText(text: string, ctx: MergeContext): { text: string; unfilled: Unfilled[] } {
  const values = fieldValues(ctx);
  const unfilled: Unfilled[] = [];
  let out = '';
  let at = 0;
  for (const t of findTokens(text)) {
    out += text.slice(at, t.start);
    const v = t.field ? values[t.field] : null;
    if (v === null) {
      out += t.token;
      unfilled.push({ token: t.token, field: t.field, index: t.start });
    } else out += v;
    at = t.end;
  }
  return { text: out + text.slice(at), unfilled };
}

/** A draft's subject and body, filled, with what could not be filled and where. */
export function fillDraft(
  subject: string,
  body: string,
  ctx: MergeContext,
): { subject: string; body: string; unfilled: (Unfilled & { part: 'subject' | 'body' })[] } {
  const s = fillText(subject, ctx);
  const b = fillText(body, ctx);
  return {
    subject: s.text,
    body: b.text,
    unfilled: [...s.unfilled.map((u) => ({ ...u, part: 'subject' as const })), ...b.unfilled.map((u) => ({ ...u, part: 'body' as const }))],
  };
}
