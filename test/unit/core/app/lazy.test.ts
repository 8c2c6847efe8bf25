// A part of the core loaded on first use (electron/core/app/lazy.ts): loaded
// once and kept; a load that fails is that call's error, in plain words, and
// the next call tries again.
import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../../../../electron/core/app/lazy';
import { toContractError } from '../../../../electron/core/app/handlers';
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
      if (loads === 1) throw Object.assign(new Error("Cannot find module '/opt/app/out/main/chunks/csv-export-x.js'"), { code: 'ERR_MODULE_NOT_FOUND' });
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

  it('a chunk that does not parse is a damaged installation too', async () => {
    const part = onFirstUse('Results', async () => {
      throw new SyntaxError('Unexpected end of input');
    });
    expect(await part().catch((e: unknown) => e)).toMatchObject({ kind: 'installation-damaged' });
  });

  it("a fault of the module's own code (a TypeError at its top level) stays the call's internal error, its stack logged, and is not kept", async () => {
    let loads = 0;
    const bug = new TypeError("Cannot read properties of undefined (reading 'columns')");
    const part = onFirstUse('export', async () => {
      if (++loads === 1) throw bug;
      return { ok: true };
    });
    const failed = await part().catch((e: unknown) => e);
    expect(failed).toBe(bug);
    const logged: unknown[] = [];
    expect(toContractError(failed, (e) => logged.push(e))).toEqual({
      kind: 'internal',
      message: "Something went wrong: Cannot read properties of undefined (reading 'columns')",
    });
    expect(logged).toEqual([bug]);
    expect(await part()).toEqual({ ok: true });
  });
});
