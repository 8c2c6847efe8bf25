// The do-not-contact list: addresses and whole domains, kept locally (the
// user's data; sync never writes it), honoured by every export.
import { isEmailAddress, parseContact } from '../../../shared/contacts';
import type { DB } from './db';
import type { DoNotContactEntry } from '../../../shared/model';
export type { DoNotContactEntry } from '../../../shared/model';


const DOMAIN = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

/** An address, a domain, or "@domain": normalised, or an error in plain words. */
export function parseDoNotContact(input: string): { kind: 'address' | 'domain'; value: string } | { error: string } {
  const text = input.trim().toLowerCase();
  if (text.includes('@') && !text.startsWith('@')) {
    const c = parseContact(text);
    if (!c.valid || !isEmailAddress(c.email)) return { error: `"${input.trim()}" is not an e-mail address.` };
    return { kind: 'address', value: c.identity };
  }
  const domain = text.replace(/^@/, '').replace(/\.$/, '');
  if (!DOMAIN.test(domain)) return { error: `"${input.trim()}" is neither an e-mail address nor a domain such as example.com.` };
  return { kind: 'domain', value: domain };
}

export class DoNotContactStore {
  constructor(private readonly db: DB) {}

  add(input: string, note = '', now = new Date().toISOString()): DoNotContactEntry {
    const p = parseDoNotContact(input);
    if ('error' in p) throw new RangeError(p.error);
    this.db.prepare('INSERT INTO do_not_contact (kind, value, note, added_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET note = excluded.note').run(p.kind, p.value, note, now);
    return this.db.prepare('SELECT * FROM do_not_contact WHERE kind = ? AND value = ?').get(p.kind, p.value) as DoNotContactEntry;
  }

  remove(input: string): boolean {
    const p = parseDoNotContact(input);
    if ('error' in p) throw new RangeError(p.error);
    return this.db.prepare('DELETE FROM do_not_contact WHERE kind = ? AND value = ?').run(p.kind, p.value).changes > 0;
  }

  list(): DoNotContactEntry[] {
    return this.db.prepare('SELECT * FROM do_not_contact ORDER BY kind, value').all() as DoNotContactEntry[];
  }

  /** Is this address blocked (by itself, its domain, or a parent domain)? */
  blocks(identity: string, domain: string): boolean {
    return (
      this.db
        .prepare(`SELECT 1 FROM do_not_contact WHERE (kind = 'address' AND value = ?) OR (kind = 'domain' AND (value = ? OR ? LIKE '%.' || value)) LIMIT 1`)
        .get(identity, domain, domain) !== undefined
    );
  }
}
