// An opportunity row's outgoing text: the merge fields' values are worked out only
// for a text that may hold a token ({…} or […]); every text must come out as the
// full fill gives it (shared/merge-fields.ts), tokens or not.
import { describe, expect, it } from 'vitest';
import { mayHoldTokens, opportunityExportRow } from '../../../../electron/core/export/filled-rows';
import type { OpportunityRow, PipelineFields } from '../../../../electron/core/store/export-rows';
import { fieldValues, fillDraftWith } from '../../../../shared/merge-fields';

const record = {
  _id: 'o1',
  domain: 'www.wired.com',
  title: 'A story',
  url: 'https://wired.com/a',
  author_name: 'Ana Lopez',
  pitch_subject: 'S',
  pitch_body: 'B',
};
const pipeline = (subject: string, body: string): PipelineFields => ({
  stage: null,
  stage_reason: null,
  snoozed_until: null,
  followed_up_at: null,
  contacted_addresses: null,
  contacted_subject: null,
  pitch_draft: { subject, body },
  followup_draft: null,
});
const row = (subject: string, body: string): OpportunityRow => ({
  opportunity_rowid: 1,
  json: JSON.stringify(record),
  status: 'New',
  note: '',
  contacted_at: null,
  exported_at: null,
  addresses: [['ana@wired.com', 0]],
  pipeline: pipeline(subject, body),
});

const TEXTS: [string, string][] = [
  ['Plain subject', 'Plain body, no tokens at all.\nTwo lines.'],
  ['Hi [Name]', 'About [Article Title] on [Publication]. [Your Name]'],
  ['Hello {first_name}', 'Your piece {article_title} — {{brand}} here. {unknown_field}'],
  ['Ref [1]', 'A link [text](https://x.y) and a brace { alone'],
  ['', ''],
  ['Only a bracket in the body', 'see [ here'],
  ['{sender_name}', ''],
];

describe("an opportunity row's outgoing text", () => {
  it('is what the full fill gives, for texts with tokens, look-alikes and none', () => {
    for (const [subject, body] of TEXTS) {
      const out = opportunityExportRow(row(subject, body), 'Northwind', undefined, { senderName: 'Sam' }).outgoing;
      const full = fillDraftWith(
        subject,
        body,
        fieldValues({
          author_name: 'Ana Lopez',
          domain: 'www.wired.com',
          title: 'A story',
          url: 'https://wired.com/a',
          brand: 'Northwind',
          sender_name: 'Sam',
          contact: { email: 'ana@wired.com', catchAll: false },
        }),
      );
      const tokens = [...new Set(full.unfilled.map((u) => u.token))];
      expect(out).toEqual({ subject: full.subject, body: full.body, tokens, unfilled: tokens.join(' ') });
    }
    // The texts with tokens were filled (the check above is not vacuous).
    expect(opportunityExportRow(row('Hi [Name]', '{first_name}'), 'Northwind').outgoing).toMatchObject({ subject: 'Hi Ana', body: 'Ana' });
    expect(opportunityExportRow(row('x', '{unknown_field}'), 'Northwind').outgoing.unfilled).toBe('{unknown_field}');
  });

  it('may hold tokens exactly when it has a brace or a bracket', () => {
    expect(mayHoldTokens({ subject: 'Hi', body: 'no tokens' })).toBe(false);
    expect(mayHoldTokens({ subject: 'Hi [Name]', body: '' })).toBe(true);
    expect(mayHoldTokens({ subject: '', body: 'x {first_name}' })).toBe(true);
    expect(mayHoldTokens({ subject: '{', body: '' })).toBe(true);
    expect(mayHoldTokens({ subject: '', body: '[' })).toBe(true);
  });
});
