// DESIGN.md's table of rooms is enforced by lint; prove the rules fire.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function importErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('rooms (who may import whom)', () => {
  const cases: [file: string, source: string, allowed: boolean][] = [
    ['shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;", false],
    ['shared/x.ts', "import { app } from 'electron';\nexport const a = app;", false],
    ['shared/x.ts', "import { parseContact } from './contacts';\nexport const a = parseContact;", true],
    ['electron/core/x.ts', "import { app } from 'electron';\nexport const a = app;", false],
    ['electron/core/x.ts', "import { a } from '../main/index';\nexport const b = a;", false],
    ['electron/core/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;", true],
    ['electron/core/x.ts', "import { a } from '../../test/helpers';\nexport const b = a;", false],
    ['electron/main/x.ts', "import { a } from '../../test/helpers';\nexport const b = a;", false],
    // The engine lives in the core process: main reaches it only through shared/core-link.ts.
    ['electron/main/x.ts', "import { startSimulator } from '../simulator/server';\nexport const a = startSimulator;", false],
    ['electron/main/x.ts', "import Database from 'better-sqlite3';\nexport const a = Database;", false],
    ['electron/main/x.ts', "import { CoreLink } from '../../shared/core-link';\nexport const a = CoreLink;", true],
    ['electron/core-process/x.ts', "import { serveCore } from '../core/app/core-server';\nexport const a = serveCore;", true],
    ['electron/core-process/x.ts', "import { net } from 'electron';\nexport const a = net;", true],
    ['electron/core-process/x.ts', "import { a } from '../main/index';\nexport const b = a;", false],
    ['electron/simulator/x.ts', "import { Cache } from '../core/store/cache';\nexport const a = Cache;", false],
    ['electron/simulator/x.ts', "import { app } from 'electron';\nexport const a = app;", false],
    ['electron/simulator/x.ts', "import { LIMITS } from '../../shared/domain';\nexport const a = LIMITS;", true],
    ['electron/preload/x.ts', "import { a } from '../core/db';\nexport const b = a;", false],
    ['electron/preload/x.ts', "import { contextBridge } from 'electron';\nexport const a = contextBridge;", true],
    ['electron/cli/x.ts', "import { app } from 'electron';\nexport const a = app;", false],
    ['electron/cli/x.ts', "import { startSimulator } from '../simulator/server';\nexport const a = startSimulator;", true],
    ['renderer/src/x.ts', "import { startSimulator } from '../../electron/simulator/server';\nexport const a = startSimulator;", false],
    ['renderer/src/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;", false],
    ['renderer/src/x.ts', "import { parseContact } from '../../shared/contacts';\nexport const a = parseContact;", true],
  ];
  for (const [file, source, allowed] of cases) {
    it(`${file}: ${source.split('\n')[0]} is ${allowed ? 'allowed' : 'refused'}`, async () => {
      const errors = await importErrors(file, source);
      if (allowed) expect(errors).toEqual([]);
      else expect(errors.join(' ')).toMatch(/DESIGN\.md/);
    });
  }

  it('shared/ may not touch DOM or process globals', async () => {
    const [result] = await eslint.lintText('export const a = () => window.location.href + process.env.HOME;', { filePath: 'shared/x.ts' });
    expect(result?.messages.filter((m) => m.ruleId === 'no-restricted-globals')).toHaveLength(2);
  });

  it('{@html} is an error in Svelte components', async () => {
    const [result] = await eslint.lintText('<script lang="ts">let { t }: { t: string } = $props();</script>\n<p>{@html t}</p>\n', {
      filePath: 'renderer/src/X.svelte',
    });
    expect(result?.messages.some((m) => m.ruleId === 'svelte/no-at-html-tags' && m.severity === 2)).toBe(true);
  });
});
