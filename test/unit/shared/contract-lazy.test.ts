// The contract's schemas are built the first time they are read, not when the module loads (the core's start
// pays only for the arguments of the methods it is called with): each method's argument schema is built by its
// first read and kept (the same schema on every call), its result schema only when read, an event's payload
// likewise; the record file's schemas (shared/user-record.ts, loaded at the core's start) when a record is read. Counted through zod itself: every builder call (z.object, z.tuple, ...) the contract makes.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type * as Zod from 'zod';

const built = { calls: 0 };

vi.doMock('zod', async (importOriginal) => {
  const real = await importOriginal<typeof Zod>();
  const counting = new Proxy(real.z, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        built.calls += 1;
        return Reflect.apply(v, target, args);
      };
    },
  });
  return { ...real, z: counting };
});

const { contract, events } = await import('../../../shared/contract');
afterAll(() => {
  vi.doUnmock('zod');
});

/** How many zod builder calls reading `read` makes. */
function cost(read: () => unknown): number {
  const before = built.calls;
  read();
  return built.calls - before;
}

describe('the contract builds its schemas on first use', () => {
  it("each method's arguments are built by their first read, then kept", () => {
    for (const [name, m] of Object.entries(contract)) {
      const descriptor = Object.getOwnPropertyDescriptor(m, 'args');
      expect(descriptor?.get, name).toBeTypeOf('function');
      const first = cost(() => m.args);
      // A method with no arguments shares one empty tuple; every other one builds its own on first read.
      if (m.args.def.items.length > 0) expect(first, name).toBeGreaterThan(0);
      const schema = m.args;
      expect(
        cost(() => m.args),
        name,
      ).toBe(0);
      expect(m.args, name).toBe(schema);
    }
  });

  it("an event's payload is built when it is read, then kept", () => {
    // Before any result is read: the key's status is also two results' schema.
    for (const [name, schema] of Object.entries(Object.getOwnPropertyDescriptors(events))) {
      expect(schema.get, name).toBeTypeOf('function');
      expect(schema.enumerable, name).toBe(true);
      const e = name as keyof typeof events;
      expect(
        cost(() => events[e]),
        name,
      ).toBeGreaterThan(0);
      expect(events[e], name).toBe(events[e]);
    }
  });

  it("reading the arguments builds no result: a result's schema is built when it is read", () => {
    for (const name of ['opportunities:list', 'opportunities:view', 'triage:apply', 'app:state', 'export:confirm-sent'] as const) {
      expect(cost(() => contract[name].args)).toBe(0);
      expect(
        cost(() => contract[name].result),
        name,
      ).toBeGreaterThan(0);
      expect(
        cost(() => contract[name].result),
        name,
      ).toBe(0);
    }
  });

  it('the schemas built on first use parse as before', () => {
    const brandId = '1749113348709x432280934699237400';
    const view = contract['opportunities:view'].args;
    expect(view.safeParse([{ filter: { brandId }, limit: 200 }]).success).toBe(true);
    expect(view.safeParse([{ filter: { brandId, nope: 1 }, limit: 200 }]).success).toBe(false);
    expect(view.safeParse([{ filter: { brandId }, limit: 5000 }]).success).toBe(false);
    expect(events['export:done'].safeParse({ jobId: 'j', result: null, error: { kind: 'cancelled', message: 'm' } }).success).toBe(true);
  });
});

describe("the record file's schemas are built when a record is read", () => {
  it('not when the module loads; once, then kept', async () => {
    const before = built.calls;
    const record = await import('../../../shared/user-record');
    const atLoad = built.calls - before;
    const first = cost(() => record.recordFileSchema());
    expect(first).toBeGreaterThan(10 * atLoad);
    // The file's schema is made of the others: built with it, then kept.
    expect(cost(() => record.triageRecordSchema())).toBe(0);
    expect(cost(() => record.recordFileSchema())).toBe(0);
    expect(record.recordFileSchema()).toBe(record.recordFileSchema());
    expect(record.parseRecordFile('{"format":"outreach-workbench-record","version":1}')).toMatchObject({ ok: false });
  });
});
