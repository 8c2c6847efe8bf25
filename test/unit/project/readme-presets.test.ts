// The README lists every export preset with the tool it is for and the import
// rule it follows, as shared/export-presets.ts declares them: a preset added
// there and not documented fails here.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { EXPORT_PRESETS, PRESETS } from '../../../shared/export-presets';

const readme = readFileSync('README.md', 'utf8');
const section = readme.slice(readme.indexOf('## Export for mail tools'), readme.indexOf('## Architecture'));

describe('the README documents the export presets', () => {
  it('a row per preset in the presets table, naming its tool, its rule and what the export does', () => {
    const rows = section.split('\n').filter((l) => /^\| `[a-z-]+` \|/.test(l));
    expect(new Set(rows.map((r) => /^\| `([a-z-]+)`/.exec(r)![1]))).toEqual(new Set(EXPORT_PRESETS));
    expect(rows).toHaveLength(EXPORT_PRESETS.length);
    for (const p of EXPORT_PRESETS) {
      const [, tool, rule, does] = rows
        .find((r) => r.startsWith(`| \`${p}\` |`))!
        .split(' | ')
        .map((c) => c.trim());
      expect(rule!.length, p).toBeGreaterThan(20);
      expect(does!.length, p).toBeGreaterThan(20);
      // A tool's preset names that tool, as its label does ("Instantly", "Word/Outlook mail merge", …).
      if (p !== 'contacts' && p !== 'opportunities' && p !== 'followups')
        expect(tool!.toLowerCase(), p).toContain(PRESETS[p].label.split(' ')[0]!.toLowerCase());
    }
  });
});
