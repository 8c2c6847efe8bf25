// What opening the cache loads: every launch and every CLI command pays for
// the modules the store imports before its first list page. zod (the record
// file's schemas, ~750 KB, tens of milliseconds to load) is for reading a
// record file, not for opening the cache: no module the cache imports at run
// time reaches it. Type-only imports are erased and not followed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../../..');

/** The run-time imports of one source file: every `import … from` / `export … from` that is not `import type` / `export type`. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)) out.push(m[2]!);
  for (const m of text.matchAll(/^import\s+'([^']+)'/gm)) out.push(m[1]!);
  return out;
}

/** The source file an import names: `x.ts`, or a folder's `index.ts`. */
const source = (at: string): string => (at.endsWith('.ts') ? at : existsSync(`${at}.ts`) ? `${at}.ts` : join(at, 'index.ts'));

/** Every file and package reached at run time from `entry`, with the path that reached each package. */
function reached(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, path: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith('.')) walk(source(join(dirname(file), spec)), [...path, file]);
      else if (!spec.startsWith('node:'))
        packages.set(
          spec,
          [...path, file].map((f) => f.slice(ROOT.length + 1)),
        );
    }
  };
  walk(join(ROOT, entry), []);
  return packages;
}

describe('what opening the cache loads', () => {
  it('the store (Cache.open, the list, the record read and written) reaches SQLite and no zod', () => {
    const packages = reached('electron/core/store/cache.ts');
    expect(packages.has('better-sqlite3')).toBe(true); // the walk does follow the store's imports
    expect([...packages].filter(([p]) => p === 'zod' || p.startsWith('zod/'))).toEqual([]);
  });
});
