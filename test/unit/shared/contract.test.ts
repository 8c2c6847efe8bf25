// The contract declared once: the plain names the preload and the test host's shim are built from are
// exactly the declaration's, the shim offers nothing else, and argument dates are whole calendar dates.
import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { contract, events } from '../../../shared/contract';
import { EVENT_NAMES, METHOD_NAMES } from '../../../shared/contract-names';
import { MAX_SEARCH_LENGTH } from '../../../shared/search-words';
import { shimSource } from '../../../test/host/server';

const brandId = '1749113348709x432280934699237400';

describe('the declaration and its names', () => {
  it('the names lists are the declaration keys, in both directions', () => {
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(contract).sort());
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(events).sort());
    expect(new Set(METHOD_NAMES).size).toBe(METHOD_NAMES.length);
  });

  it('every method declares an argument tuple and a result', () => {
    for (const [name, m] of Object.entries(contract)) {
      expect(m.args.def.type, name).toBe('tuple');
      expect(m.result, name).toBeDefined();
    }
  });

  it('dates in arguments are anchored at both ends and real', () => {
    const patch = (on: string) => contract['triage:apply'].args.safeParse([{ brandId, ids: ['x'], action: { do: 'contacted', on } }]).success;
    expect(patch('2024-02-29')).toBe(true);
    for (const bad of ['2024-02-29T10:00:00Z', '2024-02-29 and more', '2023-02-29', '2024-13-01', ' 2024-01-01']) expect(patch(bad), bad).toBe(false);
    const scores = (start: string) => contract['scores:get'].args.safeParse([{ brandId, breakdown: '', start }]).success;
    expect(scores('2026-01-01')).toBe(true);
    expect(scores('2026-01-01x')).toBe(false);
  });

  it('a triage action is one of the intents, each with only its own fields', () => {
    const act = (action: unknown) => contract['triage:apply'].args.safeParse([{ brandId, ids: ['x'], action }]).success;
    expect(act({ do: 'stage', stage: 'Won' })).toBe(true);
    expect(act({ do: 'not-a-fit', reason: 'Paywalled or closed' })).toBe(true);
    expect(act({ do: 'snooze', until: null })).toBe(true);
    expect(act({ do: 'contacted' })).toBe(true);
    // No patch of raw fields: a stage is set through its intent, never written beside the rules.
    expect(act({ do: 'stage', stage: 'Won', status: 'Done' })).toBe(false);
    expect(act({ do: 'set', patch: { stage: 'Won' } })).toBe(false);
    expect(act({ do: 'stage', stage: 'Closed' })).toBe(false);
    expect(act({ do: 'note', text: 'x'.repeat(100_001) })).toBe(false);
  });

  it('simple results have real schemas; large domain results are carried as types', () => {
    expect(contract['dnc:remove'].result.safeParse({ removed: true }).success).toBe(true);
    expect(contract['dnc:remove'].result.safeParse({ removed: 'yes' }).success).toBe(false);
    expect(contract['export:choose-file'].result.safeParse({ file: null }).success).toBe(true);
    expect(contract['keys:status'].result.safeParse({ state: 'stored', last4: 'abcd', keychain: 'available', lastCheck: null, message: 'ok' }).success).toBe(
      true,
    );
    expect(
      contract['keys:status'].result.safeParse({ state: 'stored', last4: 'abcd', keychain: 'available', lastCheck: null, message: 'ok', key: 'sk' }).data,
    ).not.toHaveProperty('key');
  });
  it('a search as long as the window lets one be (MAX_SEARCH_LENGTH) is taken; one character more is refused', () => {
    const list = (search: string) => contract['opportunities:list'].args.safeParse([{ filter: { brandId, search }, offset: 0, limit: 1 }]).success;
    expect(list('x'.repeat(MAX_SEARCH_LENGTH))).toBe(true);
    expect(list('x'.repeat(MAX_SEARCH_LENGTH + 1))).toBe(false);
  });
});

describe("the test host's shim", () => {
  function loadShim() {
    const window: Record<string, unknown> = {};
    class EventSource {
      onmessage: unknown = null;
    }
    runInNewContext(shimSource(), { window, EventSource, fetch: () => Promise.reject(new Error('offline')), structuredClone });
    return window.workbench as Record<string, unknown> & { on(event: string, l: () => void): () => void };
  }

  it('offers exactly the contract methods and on', () => {
    const api = loadShim();
    expect(Object.keys(api).sort()).toEqual([...METHOD_NAMES, 'on'].sort());
    for (const m of METHOD_NAMES) expect(typeof api[m], m).toBe('function');
  });

  it('refuses names outside the declaration', () => {
    const api = loadShim();
    expect(api['opportunities:delete']).toBeUndefined();
    expect(api['__proto__:x']).toBeUndefined();
    expect(() => api.on('sync:evnt', () => {})).toThrow('No such event: sync:evnt');
    expect(typeof api.on('sync:event', () => {})).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
  });
});
