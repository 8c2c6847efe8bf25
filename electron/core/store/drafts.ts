// The user's drafts: per opportunity, the pitch and the one follow-up, as the
// user edits them (saved as they type), with the service's pitch the draft
// started from, so a later change of it can be shown and never overwrites the
// draft. And the user's snippets (openings, sign-offs). The user's record:
// sync never writes here. Free functions over a ReadableDB or a WritableDB.
import { invalidInput } from '../../../shared/errors';
import { randomUUID } from 'node:crypto';
import type { DraftRecord, SnippetRecord } from '../../../shared/user-record';
import type { ReadableDB, WritableDB } from './database';
import { addHistory } from './history';
import { sql } from './sql';

export type DraftKind = DraftRecord['kind'];

export function readDraft(db: ReadableDB, brandId: string, id: string, kind: DraftKind): DraftRecord | undefined {
  return db.get<DraftRecord>(sql`SELECT * FROM drafts WHERE brand_id = ${brandId} AND opportunity_id = ${id} AND kind = ${kind}`);
}

/** Save a draft as the user typed it; `base` is the service's pitch it started from (kept from the first save on). In the caller's transaction. */
export function saveDraft(
  db: WritableDB,
  brandId: string,
  id: string,
  kind: DraftKind,
  text: { subject: string; body: string },
  base: { subject: string; body: string } | null,
  now = new Date().toISOString(),
): DraftRecord {
  if (text.subject.length > 2000 || text.body.length > 200_000) throw invalidInput('A draft may hold at most 2,000 characters of subject and 200,000 of body.');
  const cur = readDraft(db, brandId, id, kind);
  db.run(
    sql`INSERT INTO drafts (brand_id, opportunity_id, kind, subject, body, base_subject, base_body, updated_at)
      VALUES (${brandId}, ${id}, ${kind}, ${text.subject}, ${text.body}, ${cur ? cur.base_subject : (base?.subject ?? null)}, ${cur ? cur.base_body : (base?.body ?? null)}, ${now})
      ON CONFLICT (brand_id, opportunity_id, kind) DO UPDATE SET subject = excluded.subject, body = excluded.body, updated_at = excluded.updated_at`,
  );
  // Typing saves often: one history line for a run of edits (history.ts merges them).
  if (!cur || cur.subject !== text.subject || cur.body !== text.body)
    addHistory(db, brandId, id, 'draft', now, `${kind === 'pitch' ? 'Pitch' : 'Follow-up'} edited`);
  return readDraft(db, brandId, id, kind)!;
}

/** Back to the service's pitch: the draft goes (its text stays in the backups and the history says so). In the caller's transaction. */
export function resetDraft(db: WritableDB, brandId: string, id: string, kind: DraftKind, now = new Date().toISOString()): boolean {
  const gone = db.run(sql`DELETE FROM drafts WHERE brand_id = ${brandId} AND opportunity_id = ${id} AND kind = ${kind}`).changes > 0;
  if (gone) addHistory(db, brandId, id, 'draft', now, `${kind === 'pitch' ? 'Pitch' : 'Follow-up'} reset to the service's text`);
  return gone;
}

/** Every draft, as the record file holds them. */
export function allDrafts(db: ReadableDB): DraftRecord[] {
  return db.all<DraftRecord>(sql`SELECT * FROM drafts ORDER BY brand_id, opportunity_id, kind`);
}

/** Put a record's draft in place as it is (merge and restore decide what goes in). */
export function putDraft(db: WritableDB, d: DraftRecord): void {
  db.run(
    sql`INSERT OR REPLACE INTO drafts (brand_id, opportunity_id, kind, subject, body, base_subject, base_body, updated_at)
      VALUES (${d.brand_id}, ${d.opportunity_id}, ${d.kind}, ${d.subject}, ${d.body}, ${d.base_subject}, ${d.base_body}, ${d.updated_at})`,
  );
}

export function clearDrafts(db: WritableDB): void {
  db.run(sql`DELETE FROM drafts`);
}

export function listSnippets(db: ReadableDB): SnippetRecord[] {
  return db.all<SnippetRecord>(sql`SELECT * FROM snippets ORDER BY kind, name COLLATE NOCASE`);
}

/** Add (no id) or change one; returns it. */
export function saveSnippet(
  db: WritableDB,
  s: { id?: string; kind: SnippetRecord['kind']; name: string; text: string },
  now = new Date().toISOString(),
): SnippetRecord {
  const name = s.name.trim();
  if (!name) throw invalidInput('A snippet needs a name.', 'name');
  const rec: SnippetRecord = { id: s.id ?? randomUUID(), kind: s.kind, name, text: s.text, updated_at: now };
  putSnippet(db, rec);
  return rec;
}

export function removeSnippet(db: WritableDB, id: string): boolean {
  return db.run(sql`DELETE FROM snippets WHERE id = ${id}`).changes > 0;
}

export function readSnippet(db: ReadableDB, id: string): SnippetRecord | undefined {
  return db.get<SnippetRecord>(sql`SELECT * FROM snippets WHERE id = ${id}`);
}

export function putSnippet(db: WritableDB, s: SnippetRecord): void {
  db.run(sql`INSERT OR REPLACE INTO snippets (id, kind, name, text, updated_at) VALUES (${s.id}, ${s.kind}, ${s.name}, ${s.text}, ${s.updated_at})`);
}

export function clearSnippets(db: WritableDB): void {
  db.run(sql`DELETE FROM snippets`);
}
