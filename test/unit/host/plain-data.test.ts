// The test host's rule for results (test/host/plain-data.ts): JSON and a structured clone must carry them alike.
import { describe, expect, it } from 'vitest';
import { plainDataProblem } from '../../host/plain-data';

describe('plainDataProblem', () => {
  it('passes plain data, with a property set to undefined taken as none', () => {
    expect(plainDataProblem({ ok: true, value: { items: [{ id: 'a', n: 1, tags: ['x'], note: null, gone: undefined }], next: undefined } })).toBeNull();
    expect(plainDataProblem(Object.assign(Object.create(null), { a: 1 }))).toBeNull();
  });
  it.each([
    [{ value: { at: new Date(0) } }, 'result.value.at is a Date'],
    [{ value: new Map() }, 'result.value is a Map'],
    [{ value: { bytes: new Uint8Array(2) } }, 'result.value.bytes is a Uint8Array'],
    [{ value: [1, undefined] }, 'result.value[1] is undefined'],
    [{ value: { n: Number.NaN } }, 'result.value.n is NaN'],
    [{ value: { n: 1n } }, 'result.value.n is a bigint'],
  ])('refuses %o: %s', (value, problem) => {
    expect(plainDataProblem(value)).toContain(problem);
  });
});
