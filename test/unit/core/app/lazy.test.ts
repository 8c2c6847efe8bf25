// A part of the core loaded on first use (electron/core/app/lazy.ts): loaded
// once and kept; a load that fails is that call's error, in plain words, and
// the next call tries again.
import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../../../../electron/core/app/lazy';
import { WorkbenchError } from '../../../../shared/errors';

describe('a part loaded on first use', () => {
  it('is loaded by the first call only; later calls get the same module', async () => {
    let loads = 0;
    const part = onFirstUse('export', async () => ({ n: ++loads }));
    const [a, b] = await Promise.all([part(), part()]);
    const c = await part();
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
  });

  it("that cannot load fails the call in plain words (reinstall; the user's data is fine), and the next call loads it again", async () => {
    let loads = 0;
    const part = onFirstUse('export', async () => {
      loads++;
      if (loads === 1) throw new Error("Cannot find module '/opt/app/out/main/chunks/csv-export-x.js'");
      return { ok: true };
    });
    const failed = await part().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkbenchError);
    expect(failed).toMatchObject({
      kind: 'installation-damaged',
      message:
        "The app's export could not be loaded (Cannot find module '/opt/app/out/main/chunks/csv-export-x.js'). Reinstall the app; your cache and triage are not affected.",
    });
    expect(await part()).toEqual({ ok: true });
    expect(loads).toBe(2);
  });
});
