// Merge fields in a draft: `{first_name}`, `{last_name}`, `{author_name}`,
// `{publication}`, `{article_title}`, `{article_url}`, `{brand}` and
// `{sender_name}` (also written `{{first_name}}`), and the square-bracket
// placeholders the service's own pitches hold (`[Name]`, `[First Name]`,
// `[Publication]`, `[Article Title]`, `[Your Name]`, …). Filled from the
// opportunity and the address chosen; a token that cannot be filled stays in
// the text exactly as written (so the editor can highlight it) and is listed,
// never dropped: an unknown `{field}` or `[Placeholder]` too. Pure functions.
//
// Names are never guessed:
// - A first and last name come only from the article's author (`author_name`,
//   first word / the rest, after a title such as "Dr." or a trailing "PhD"),
//   never from an e-mail address.
// - Not at all when the chosen address is a catch-all or a role address
//   (info@, press@, … ROLE_LOCAL_PARTS): whoever reads that inbox may not be
//   the author, so "Hi Ana" would be a guess. `{first_name}` and
//   `{last_name}` (and `[Name]`) then stay unfilled and are listed.
// - Not when the byline is not one person ("Staff", "Editorial Team",
//   "Ana Lopez and Ben Kim"), nor a first name that is only an initial ("A.").

export const MERGE_FIELDS = ['first_name', 'last_name', 'author_name', 'publication', 'article_title', 'article_url', 'brand', 'sender_name'] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

/** The local parts of role addresses: an inbox, not a person (press+uk@ counts as press@). */
export const ROLE_LOCAL_PARTS = [
  'info',
  'press',
  'news',
  'newsdesk',
  'editor',
  'editors',
  'editorial',
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
  'letters',
  'submissions',
  'feedback',
] as const;

const ROLES: ReadonlySet<string> = new Set(ROLE_LOCAL_PARTS);

/** Is this a role address (info@, press@, …)? */
export function isRoleAddress(email: string): boolean {
  const local = (email.trim().toLowerCase().split('@')[0] ?? '').replace(/\+.*$/, '');
  return ROLES.has(local);
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

/**
 * Other names for the fields, as written in brackets or braces, normalised
 * (lower case, "'s" dropped, `_`, `-`, `.` and runs of spaces as one space).
 * A name not here and not a field is an unknown placeholder.
 */
const ALIAS_TABLE: Record<string, MergeField> = {
  name: 'first_name',
  'first name': 'first_name',
  firstname: 'first_name',
  'recipient name': 'first_name',
  recipient: 'first_name',
  'contact name': 'first_name',
  'journalist name': 'first_name',
  journalist: 'first_name',
  'reporter name': 'first_name',
  'writer name': 'first_name',
  'editor name': 'first_name',
  'last name': 'last_name',
  lastname: 'last_name',
  surname: 'last_name',
  'author name': 'author_name',
  authorname: 'author_name',
  author: 'author_name',
  publication: 'publication',
  'publication name': 'publication',
  outlet: 'publication',
  'outlet name': 'publication',
  site: 'publication',
  'site name': 'publication',
  website: 'publication',
  'website name': 'publication',
  blog: 'publication',
  'blog name': 'publication',
  magazine: 'publication',
  article: 'article_title',
  'article title': 'article_title',
  'article name': 'article_title',
  title: 'article_title',
  'post title': 'article_title',
  headline: 'article_title',
  'article url': 'article_url',
  'article link': 'article_url',
  link: 'article_url',
  url: 'article_url',
  brand: 'brand',
  'brand name': 'brand',
  company: 'brand',
  'company name': 'brand',
  'your company': 'brand',
  'your brand': 'brand',
  'your name': 'sender_name',
  'my name': 'sender_name',
  sender: 'sender_name',
  'sender name': 'sender_name',
};
/** A Map, not an object lookup: "{constructor}" or "{__proto__}" is an unknown placeholder, not a prototype's property. */
const ALIASES: ReadonlyMap<string, MergeField> = new Map([...Object.entries(ALIAS_TABLE), ...MERGE_FIELDS.map((f) => [f.replace(/_/g, ' '), f] as const)]);

const normalise = (name: string) =>
  name
    .toLowerCase()
    .replace(/[’']s\b/g, '')
    .replace(/[’']/g, '')
    .replace(/[\s_.-]+/g, ' ')
    .trim();

/** The field a token's inner name stands for ("First Name", "first_name", "Journalist's Name"), or null. */
export function fieldNamed(name: string): MergeField | null {
  return ALIASES.get(normalise(name)) ?? null;
}

/**
 * A merge token: `{{name}}`, `{name}` (a letter or `_` first), or a bracket
 * placeholder `[Name]` (a capital first, as the service writes them; a
 * Markdown link `[text](…)` and a reference `[1]` are not placeholders).
 * Tokens never span lines.
 */
const TOKEN = /\{\{[ \t]*([\w .'’-]{1,40}?)[ \t]*\}\}|\{[ \t]*([A-Za-z_][\w .'’-]{0,38}?)[ \t]*\}|\[[ \t]*([A-Z][\w '’&./-]{0,38}?)[ \t]*\](?!\()/g;

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
    const inner = m[1] ?? m[2] ?? m[3] ?? '';
    out.push({ token: m[0], start: m.index, end: m.index + m[0].length, field: fieldNamed(inner) });
  }
  return out;
}

const clean = (v: string | null | undefined): string | null => {
  const t = (v ?? '').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
};

const HONORIFIC = /^(?:dr|prof|professor|mr|mrs|ms|mx|miss|sir|dame|rev)\.?$/i;
const CREDENTIAL = /^(?:ph\.?d|m\.?d|r\.?d|r\.?n|mba|mph|msc|bsc|jr|sr|ii|iii|iv|esq|cpa|dds|dvm)\.?$/i;
const NOT_ONE_PERSON =
  /\b(?:staff|team|editors?|editorial|desk|newsroom|contributors?|admin|writers|reporters|correspondents?|bureau|press|anonymous|unknown)\b|\s(?:and|&|with|und|et)\s|[;/@\d]/i;
const INITIAL = /^(?:\p{L}\.?|(?:\p{L}\.){2,}\p{L}?)$/u;

/**
 * A byline's first name and the rest, or null when it is not one person's
 * name. "Dr. Ana María Souza, PhD" gives Ana / María Souza; "By Ana Lopez"
 * Ana / Lopez; "Dr. Lopez" no first name / Lopez; "Staff", "Ana Lopez and
 * Ben Kim", "@ana" give null. A first name that is only an initial
 * ("A. Lopez") is null on its own.
 */
export function authorNames(author: string | null | undefined): { first: string | null; last: string | null } | null {
  const byline = clean(author)?.replace(/^by\s+/i, '') ?? '';
  if (byline === '' || NOT_ONE_PERSON.test(byline)) return null;
  const [name = '', ...rest] = byline
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // "Ana Lopez, PhD" is one person; "Ana Lopez, Ben Kim" is two.
  if (!rest.every((s) => s.split(/\s+/).every((w) => CREDENTIAL.test(w)))) return null;
  const words = name.split(/\s+/).filter(Boolean);
  const titled = words.length > 1 && HONORIFIC.test(words[0]!);
  while (words.length > 1 && HONORIFIC.test(words[0]!)) words.shift();
  while (words.length > 1 && CREDENTIAL.test(words[words.length - 1]!)) words.pop();
  if (words.length === 0) return null;
  // "Dr. Lopez": a title and one name is a surname.
  if (titled && words.length === 1) return { first: null, last: words[0]! };
  const first = words[0]!;
  return { first: INITIAL.test(first) ? null : first, last: words.length > 1 ? words.slice(1).join(' ') : null };
}

/** The outlet's name from a domain: "www.wired.com" -> "wired.com" (a scheme or path is dropped). */
function publicationOf(domain: string | null): string | null {
  if (domain === null) return null;
  const host = domain
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/[/?#].*$/, '')
    .replace(/^www\d*\./i, '')
    .toLowerCase();
  return host === '' ? null : host;
}

/** Each field's value for this context, or null when it cannot be known. */
export function fieldValues(ctx: MergeContext): Record<MergeField, string | null> {
  return mergeValues(ctx).values;
}

/** The merge fields' values, and whether the address is an inbox (a catch-all or role address) rather than the author. */
export function mergeValues(ctx: MergeContext): { values: Record<MergeField, string | null>; inbox: boolean } {
  const author = clean(ctx.author_name);
  // An inbox, not a person: never address it by the author's name (see the top of this file).
  const inbox = ctx.contact ? ctx.contact.catchAll || isRoleAddress(ctx.contact.email) : false;
  const names = inbox ? null : authorNames(author);
  const values = {
    first_name: names?.first ?? null,
    last_name: names?.last ?? null,
    author_name: author,
    publication: clean(ctx.publication) ?? publicationOf(clean(ctx.domain)),
    article_title: clean(ctx.title),
    article_url: clean(ctx.url),
    brand: clean(ctx.brand),
    sender_name: clean(ctx.sender_name),
  };
  return { values, inbox };
}

export interface Unfilled {
  token: string;
  field: MergeField | null;
  /** Where it is in the text as written. */
  index: number;
}

/** Fill what can be filled; what cannot stays as written and is listed. Values are inserted as they are, never read for tokens again. */
export function fillText(text: string, ctx: MergeContext): { text: string; unfilled: Unfilled[] } {
  return fillWith(text, fieldValues(ctx));
}

function fillWith(text: string, values: Record<MergeField, string | null>): { text: string; unfilled: Unfilled[] } {
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

export type DraftUnfilled = Unfilled & { part: 'subject' | 'body' };

/** Values to use where a field cannot be known (an export's "fill a default": first_name -> "there"). */
export type MergeDefaults = Partial<Record<MergeField, string>>;

/** The values with `defaults` where a value is unknown (a new object; the values given are left as they are). */
export function withDefaults(values: Record<MergeField, string | null>, defaults?: MergeDefaults): Record<MergeField, string | null> {
  if (!defaults) return values;
  const out = { ...values };
  for (const f of MERGE_FIELDS) if (out[f] === null && defaults[f]) out[f] = defaults[f]!;
  return out;
}

/** A draft's subject and body, filled, with what could not be filled and where (subject first); `defaults` fill what is unknown. */
export function fillDraft(
  subject: string,
  body: string,
  ctx: MergeContext,
  defaults?: MergeDefaults,
): { subject: string; body: string; unfilled: DraftUnfilled[] } {
  // The values once for both parts (an export fills 100,000 of these).
  return fillDraftWith(subject, body, withDefaults(fieldValues(ctx), defaults));
}

/** The same, with the fields' values worked out already (fieldValues): an export that also shows them works them out once. */
export function fillDraftWith(
  subject: string,
  body: string,
  values: Record<MergeField, string | null>,
): { subject: string; body: string; unfilled: DraftUnfilled[] } {
  const s = fillWith(subject, values);
  const b = fillWith(body, values);
  return {
    subject: s.text,
    body: b.text,
    unfilled: [...s.unfilled.map((u) => ({ ...u, part: 'subject' as const })), ...b.unfilled.map((u) => ({ ...u, part: 'body' as const }))],
  };
}
