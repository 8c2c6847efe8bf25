// An export reads its rows a batch at a time, and between two batches the core
// answers the window's calls: a list of another brand then refills the
// connection's pitched set for that brand. "Skip already pitched" must keep
// meaning the exported brand's pitches, in every batch.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Cache } from '../../../electron/core/store/cache';
import { list, setTriage } from '../../support/store';
import { tempDir } from '../../support/tmp';
import { saveDraft } from '../../../electron/core/store/drafts';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const A = '1749113348709x432280934699237400';
const OTHER = '1749113348709x432280934699237401';
const opp = (i: number, prefix: string) => ({
  _id: `${prefix}${i}`,
  opportunity_type: 'publication-gap',
  domain: `site${i}.com`,
  title: `Story ${i}`,
  status: 'New',
  difficulty: 'Easy',
  priority_score: 1000 - i,
  pitch_body: 'Body',
  contact_emails: [`p${i}@site${i}.com`],
});

/** `n` opportunities of a brand, ids `${prefix}0`, …, synced in one page. */
const put = (cache: Cache, brand: string, n: number, prefix: string) =>
  cache.tx(() =>
    cache.opportunities.upsertPage(
      brand,
      Array.from({ length: n }, (_, i) => opp(i, prefix)),
      1,
      '2026-11-01T00:00:00Z',
    ),
  );

describe("an export's batches", () => {
  it("skip the exported brand's pitched addresses in every batch, even when the window lists another brand between two", async () => {
    const cache = await Cache.open(join(tmp.dir, 'two-brands.db'));
    try {
      put(cache, A, 250, 'a');
      put(cache, OTHER, 5, 'b');
      // The exported brand's pitches, in every batch of 100; nothing of the other brand is pitched.
      const pitched = [5, 60, 130, 170, 210, 240];
      for (const i of pitched) setTriage(cache, A, `a${i}`, { stage: 'Contacted', contacted_at: '2026-11-05' });
      const read = (between?: () => void) => {
        const out: string[] = [];
        let n = 0;
        for (const r of cache.exportRows.opportunityRows({ brandId: A, includeArchived: true }, { skipContacted: true })) {
          out.push(...r.addresses.map(([email]) => email));
          if (++n % 50 === 0) between?.();
        }
        return out;
      };
      const straight = read();
      expect(straight).toHaveLength(250 - pitched.length);
      for (const i of pitched) expect(straight).not.toContain(`p${i}@site${i}.com`);
      // The window lists the other brand between batches: the same addresses, this brand's pitches still left out.
      expect(read(() => list(cache, { brandId: OTHER }))).toEqual(straight);
    } finally {
      cache.close();
    }
  });

  it("carry each opportunity's own drafts (this brand's, pitch and follow-up) and read drafts and the do-not-contact list at each batch", async () => {
    const cache = await Cache.open(join(tmp.dir, 'drafts.db'));
    try {
      put(cache, A, 250, 'a');
      // The other brand has drafts on the same opportunity ids: they are never this brand's.
      put(cache, OTHER, 250, 'a');
      const save = (brand: string, id: string, kind: 'pitch' | 'followup', subject: string, body: string) =>
        cache.writable.transaction(() => saveDraft(cache.writable, brand, id, kind, { subject, body }, null));
      const read = (between: () => void) => {
        const rows = new Map<string, { pitch: unknown; followup: unknown; addresses: string[] }>();
        let n = 0;
        for (const r of cache.exportRows.opportunityRows({ brandId: A, includeArchived: true })) {
          const id = (JSON.parse(r.json) as { _id: string })._id;
          rows.set(id, { pitch: r.pipeline.pitch_draft, followup: r.pipeline.followup_draft, addresses: r.addresses.map(([e]) => e) });
          // Between batches (100 rows each): what is saved for rows still to come reaches them.
          if (++n === 120) between();
        }
        return rows;
      };
      for (const i of [3, 7, 150, 220, 240]) save(OTHER, `a${i}`, 'pitch', `Other ${i}`, 'Other body');
      // The brand has no drafts and the list is empty as the export starts: a draft and an address added during it still count.
      const first = read(() => {
        save(A, 'a240', 'pitch', 'Late 240', 'Saved during the export');
        cache.doNotContact.add('p230@site230.com');
      });
      expect(first.get('a240')).toMatchObject({ pitch: { subject: 'Late 240', body: 'Saved during the export' }, followup: null });
      expect(first.get('a230')!.addresses).toEqual([]);
      expect(first.get('a231')!.addresses).toEqual(['p231@site231.com']);
      expect(first.get('a3')).toMatchObject({ pitch: null, followup: null });
      save(A, 'a3', 'pitch', 'Pitch 3', 'Body 3');
      save(A, 'a150', 'pitch', 'Pitch 150', '');
      save(A, 'a150', 'followup', 'Follow 150', 'Again 150');
      save(A, 'a220', 'followup', 'Follow 220', 'Again 220');
      const rows = read(() => cache.doNotContact.add('p231@site231.com'));
      expect(rows.size).toBe(250);
      expect(rows.get('a3')).toMatchObject({ pitch: { subject: 'Pitch 3', body: 'Body 3' }, followup: null });
      expect(rows.get('a150')).toMatchObject({ pitch: { subject: 'Pitch 150', body: '' }, followup: { subject: 'Follow 150', body: 'Again 150' } });
      expect(rows.get('a220')).toMatchObject({ pitch: null, followup: { subject: 'Follow 220', body: 'Again 220' } });
      expect(rows.get('a240')).toMatchObject({ pitch: { subject: 'Late 240', body: 'Saved during the export' }, followup: null });
      expect(rows.get('a7')).toMatchObject({ pitch: null, followup: null });
      const withDrafts = [...rows].filter(([, r]) => r.pitch !== null || r.followup !== null).map(([id]) => id);
      expect(withDrafts.sort()).toEqual(['a150', 'a220', 'a240', 'a3']);
      expect(rows.get('a230')!.addresses).toEqual([]);
      expect(rows.get('a231')!.addresses).toEqual([]);
      expect(rows.get('a232')!.addresses).toEqual(['p232@site232.com']);
    } finally {
      cache.close();
    }
  });
});
