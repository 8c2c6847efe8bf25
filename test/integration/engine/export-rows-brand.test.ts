// An export reads its rows a batch at a time, and between two batches the core
// answers the window's calls: a list of another brand then refills the
// connection's pitched set for that brand. "Skip already pitched" must keep
// meaning the exported brand's pitches, in every batch.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Cache } from '../../../electron/core/store/cache';
import { list, setTriage } from '../../support/store';
import { tempDir } from '../../support/tmp';

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

describe("an export's batches", () => {
  it("skip the exported brand's pitched addresses in every batch, even when the window lists another brand between two", async () => {
    const cache = await Cache.open(join(tmp.dir, 'two-brands.db'));
    try {
      cache.tx(() =>
        cache.opportunities.upsertPage(
          A,
          Array.from({ length: 250 }, (_, i) => opp(i, 'a')),
          1,
          '2026-11-01T00:00:00Z',
        ),
      );
      cache.tx(() =>
        cache.opportunities.upsertPage(
          OTHER,
          Array.from({ length: 5 }, (_, i) => opp(i, 'b')),
          1,
          '2026-11-01T00:00:00Z',
        ),
      );
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
});
