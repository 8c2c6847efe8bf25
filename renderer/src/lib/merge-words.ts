// Merge fields in the editor: the text cut into plain runs and tokens (for the
// highlight behind the body), each token marked filled, unfilled or not known
// yet (typed since the last answer), and why a field can't be filled, in plain
// words. What is filled is the core's answer (DraftView); this only reads it.
import { authorNames, findTokens, type MergeField } from '../../../shared/merge-fields';
import type { DraftView } from '../../../shared/model';

export type TokenState = 'filled' | 'unfilled' | 'pending';

export interface Segment {
  text: string;
  /** null: plain text. */
  state: TokenState | null;
}

export interface FieldStates {
  /** Fields (and unknown placeholders, by their text) the latest answer could not fill. */
  unfilled: ReadonlySet<string>;
  /** Fields the latest answer filled. */
  filled: ReadonlySet<string>;
}

/** A field by its name; an unknown placeholder by its text. */
const keyOf = (t: { token: string; field: string | null }) => t.field ?? `?${t.token}`;

/** What the latest answer says of each field: a field fills everywhere or nowhere, whatever its place. */
export function fieldStates(view: DraftView | null): FieldStates {
  if (!view) return { unfilled: new Set(), filled: new Set() };
  const unfilled = new Set(view.unfilled.map(keyOf));
  const filled = new Set<string>();
  for (const t of [...findTokens(view.text.subject), ...findTokens(view.text.body)]) if (!unfilled.has(keyOf(t))) filled.add(keyOf(t));
  return { unfilled, filled };
}

/** The text as runs of plain text and tokens, each token with its state. */
export function segments(text: string, states: FieldStates): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const t of findTokens(text)) {
    if (t.start > at) out.push({ text: text.slice(at, t.start), state: null });
    const key = keyOf(t);
    out.push({ text: t.token, state: t.field === null || states.unfilled.has(key) ? 'unfilled' : states.filled.has(key) ? 'filled' : 'pending' });
    at = t.end;
  }
  if (at < text.length) out.push({ text: text.slice(at), state: null });
  return out;
}

export interface ReasonContext {
  /** The address the text is filled for (the first one chosen), or null. */
  recipient: { email: string; catchAll: boolean; role: boolean } | null;
  author: string | null;
  domain: string | null;
  title: string | null;
  url: string | null;
  senderName: string;
}

const blank = (v: string | null | undefined) => !v || v.trim() === '';

/** Why a token could not be filled, in plain words. */
export function unfilledReason(u: { token: string; field: string | null }, c: ReasonContext): string {
  switch (u.field as MergeField | null) {
    case null:
      return 'it is not a merge field the app knows; replace it by hand';
    case 'first_name':
    case 'last_name':
      if (c.recipient?.catchAll) return 'the chosen address is a catch-all';
      if (c.recipient?.role) return 'the chosen address is a role address (an inbox, not a person)';
      if (blank(c.author)) return 'the article has no author';
      if (authorNames(c.author) === null) return `the byline "${c.author}" is not one person's name`;
      return u.field === 'first_name' ? 'the byline has no first name (only an initial or a title)' : 'the byline has no last name';
    case 'author_name':
      return 'the article has no author';
    case 'publication':
      return 'the opportunity has no domain';
    case 'article_title':
      return 'the article has no title';
    case 'article_url':
      return 'the article has no link';
    case 'brand':
      return "the brand's name is not known yet (sync first)";
    case 'sender_name':
      return blank(c.senderName) ? 'add your name in Settings, under Pipeline' : 'your name is not set';
    default:
      return 'it is not a merge field the app knows; replace it by hand';
  }
}

/** "{first_name} can't be filled: the chosen address is a catch-all". */
export function unfilledText(u: { token: string; field: string | null }, c: ReasonContext): string {
  return `${u.token} can't be filled: ${unfilledReason(u, c)}`;
}

/** The tokens once each, in the order they first appear (subject first). */
export function uniqueUnfilled<T extends { token: string }>(list: readonly T[]): T[] {
  const seen = new Set<string>();
  return list.filter((u) => !seen.has(u.token) && (seen.add(u.token), true));
}
