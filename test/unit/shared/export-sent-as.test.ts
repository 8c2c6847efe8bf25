// What "I sent these" records for an export, by its preset: one rule for the
// window's button and toast, the CLI's `export sent` line and the core's record
// (confirm-sent), so the words can't drift from what is written to the history.
import { describe, expect, it } from 'vitest';
import { EXPORT_PRESETS, sentAs } from '../../../shared/export-presets';

describe('sentAs', () => {
  it('a follow-ups export is recorded as followed up; every other preset as contacted', () => {
    expect(Object.fromEntries(EXPORT_PRESETS.map((p) => [p, sentAs(p)]))).toEqual({
      contacts: { kind: 'contacted', words: 'contacted' },
      opportunities: { kind: 'contacted', words: 'contacted' },
      followups: { kind: 'followed-up', words: 'followed up' },
      instantly: { kind: 'contacted', words: 'contacted' },
      lemlist: { kind: 'contacted', words: 'contacted' },
      mailchimp: { kind: 'contacted', words: 'contacted' },
      'sheets-merge': { kind: 'contacted', words: 'contacted' },
      'word-merge': { kind: 'contacted', words: 'contacted' },
    });
  });

  it('a preset this version does not know (an old export log row) is recorded as contacted', () => {
    expect(sentAs('retired-preset')).toEqual({ kind: 'contacted', words: 'contacted' });
  });
});
