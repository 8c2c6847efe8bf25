// The do-not-contact list: addresses and whole domains, kept locally (the
// user's data; sync never writes it), honoured by every export.
import { invalidInput } from '../../../shared/errors';
import { isEmailAddress, parseContact } from '../../../shared/contacts';
import type { DB } from './db';
import { sql, type Sql } from './sql';
import { Statements } from './statements';
import type { DoNotContactEntry } from '../../../shared/model';
export type { DoNotContactEntry } from '../../../shared/model';

/**
 * The do-not-contact condition, the one place it is written: is the address
 * (`identity`, lower-cased) blocked by itself, by its domain or by a parent
 * domain? Both are SQL: contact columns, or bound values.
 */
export function isBlocked(identity: Sql, domain: Sql): Sql {
  return sql`EXISTS (SELECT 1 FROM do_not_contact d WHERE (d.kind = 'address' AND d.value = ${identity}) OR (d.kind = 'domain' AND (${domain} = d.value OR ${domain} LIKE '%.' || d.value)))`;
}

const DOMAIN = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

/**
 * An address, a domain, or "@domain", however it arrives (typed, a CSV line, a
 * record file): normalised, or an error in plain words. The one normal form,
 * lower-cased, whatever the way in: "Ana Lopez <Ana@Wired.com>",
 * "mailto:ana@wired.com" and the API's "ana@wired.com CATCH" all read as the
 * address ana@wired.com.
 */
export function parseDoNotContact(input: string): { kind: 'address' | 'domain'; value: string } | { error: string } {
  const angled = /<([^<>]*)>\s*$/.exec(input.trim());
  const text = (angled ? angled[1]! : input)
    .trim()
    .replace(/^mailto:/i, '')
    .replace(/\s+catch$/i, '')
    .trim()
    .toLowerCase();
  if (text.includes('@') && !text.startsWith('@')) {
    const c = parseContact(text);
    if (!c.valid || !isEmailAddress(c.email)) return { error: `"${input.trim()}" is not an e-mail address.` };
    return { kind: 'address', value: c.identity };
  }
  const domain = text.replace(/^@/, '').replace(/\.$/, '');
  if (!DOMAIN.test(domain)) return { error: `"${input.trim()}" is neither an e-mail address nor a domain such as example.com.` };
  return { kind: 'domain', value: domain };
}

/**
 * Entries as a record file or a backup holds them, each in the normal form
 * (parseDoNotContact), so an entry that came in as "Ana@Wired.com" is honoured
 * like one typed; one that cannot be read is kept as it is (it matches nothing).
 */
export function normalisedEntries<T extends { kind: 'address' | 'domain'; value: string }>(entries: readonly T[]): T[] {
  return entries.map((e) => {
    const p = parseDoNotContact(e.value);
    return 'error' in p ? e : { ...e, kind: p.kind, value: p.value };
  });
}

export class DoNotContactStore {
  private readonly statements: Statements;

  constructor(db: DB) {
    this.statements = new Statements(db);
  }

  add(input: string, note = '', now = new Date().toISOString()): DoNotContactEntry {
    const p = parseDoNotContact(input);
    if ('error' in p) throw invalidInput(p.error, 'value');
    this.statements.run(
      sql`INSERT INTO do_not_contact (kind, value, note, added_at) VALUES (${p.kind}, ${p.value}, ${note}, ${now}) ON CONFLICT DO UPDATE SET note = excluded.note`,
    );
    return this.statements.get<DoNotContactEntry>(sql`SELECT * FROM do_not_contact WHERE kind = ${p.kind} AND value = ${p.value}`)!;
  }

  remove(input: string): boolean {
    const p = parseDoNotContact(input);
    if ('error' in p) throw invalidInput(p.error, 'value');
    return this.statements.run(sql`DELETE FROM do_not_contact WHERE kind = ${p.kind} AND value = ${p.value}`).changes > 0;
  }

  list(): DoNotContactEntry[] {
    return this.statements.all<DoNotContactEntry>(sql`SELECT * FROM do_not_contact ORDER BY kind, value`);
  }

  /** Is this address blocked (by itself, its domain, or a parent domain)? */
  blocks(identity: string, domain: string): boolean {
    return this.statements.get<{ hit: number }>(sql`SELECT ${isBlocked(sql`${identity}`, sql`${domain}`)} AS hit`)!.hit === 1;
  }
}
