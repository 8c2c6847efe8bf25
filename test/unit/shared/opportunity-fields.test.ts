// The opportunity's field table: one way to read a field (and the pitch), and
// the types derived from it keep the shapes the app was built on.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Opportunity } from '../../../shared/api/schemas';
import type { ListItem } from '../../../shared/model';
import {
  apiFields,
  apiKey,
  exportHeader,
  fieldNamed,
  fieldValue,
  listKey,
  OPPORTUNITY_FIELDS,
  pitchOf,
  type ListedFields,
} from '../../../shared/opportunity-fields';

describe('the field table', () => {
  it('names each field, API key, list key and export header once', () => {
    const unique = (xs: (string | null)[]) => new Set(xs.filter((x) => x !== null)).size === xs.filter((x) => x !== null).length;
    expect(unique(OPPORTUNITY_FIELDS.map((f) => f.name))).toBe(true);
    expect(unique(apiFields().map(apiKey))).toBe(true);
    expect(unique(OPPORTUNITY_FIELDS.map(listKey))).toBe(true);
    expect(unique(OPPORTUNITY_FIELDS.map(exportHeader))).toBe(true);
    expect(exportHeader(fieldNamed('status'))).toBe('server_status');
    expect(exportHeader(fieldNamed('topics_covered'))).toBeNull();
    expect(exportHeader(fieldNamed('contact_count'))).toBeNull();
  });

  it('reads a field one way: by its API kind, the wrong type as missing; derived fields worked out', () => {
    expect(fieldValue(fieldNamed('last_seen'), { last_seen_date: '2026-11-01' })).toBe('2026-11-01');
    expect(fieldValue(fieldNamed('title'), { title: 42 })).toBeNull();
    expect(fieldValue(fieldNamed('priority_score'), { priority_score: 71.9 })).toBe(71);
    expect(fieldValue(fieldNamed('topics_covered'), { topics_covered: ['a', 1, 'b'] })).toEqual(['a', 'b']);
    expect(fieldValue(fieldNamed('id'), { _id: 'x1', unique_key: 'k' })).toBe('x1');
    expect(fieldValue(fieldNamed('id'), { unique_key: 'k' })).toBe('key:k');
    expect(fieldValue(fieldNamed('id'), { unique_key: '' })).toBeNull();
    expect(fieldValue(fieldNamed('catch_all_count'), { contact_emails: ['a@x.com', 'b@x.com CATCH', 'n/a'] })).toBe(1);
    expect(fieldValue(fieldNamed('contact_emails'), { contact_emails: [' a@x.com ', 'b@x.com CATCH'] })).toEqual(['a@x.com', 'b@x.com']);
  });

  it('the pitch, read one way: text or empty', () => {
    expect(pitchOf({ pitch_subject: 'Hello', pitch_body: 'Hi,\n\nBody' })).toEqual({ subject: 'Hello', body: 'Hi,\n\nBody' });
    expect(pitchOf({ pitch_subject: null, pitch_body: 3 })).toEqual({ subject: '', body: '' });
    expect(pitchOf({})).toEqual({ subject: '', body: '' });
  });

  it('the types derived from it keep their shapes', () => {
    // The list item's stored part, derived from the table, is what it was when written by hand.
    expectTypeOf<ListedFields>().toEqualTypeOf<{
      id: string;
      unique_key: string | null;
      title: string;
      domain: string;
      url: string | null;
      opportunity_type: string | null;
      server_status: string | null;
      archived: boolean;
      priority_score: number | null;
      fit_score: number | null;
      difficulty: string | null;
      last_seen: string | null;
      contact_count: number;
      catch_all_count: number;
    }>();
    expectTypeOf<ListItem>().toExtend<ListedFields & { stage: string | null; starred: boolean; pitched_at: string | null }>();
    expectTypeOf<Opportunity['_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Opportunity['author_name']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Opportunity['archived']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Opportunity['priority_score']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Opportunity['contact_emails']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Opportunity['Created Date']>().toEqualTypeOf<string | undefined>();
  });
});
