// What the test host may hand the page as JSON and still mean what Electron's
// structured clone would hand the window: null, booleans, finite numbers,
// strings, arrays and plain objects (a property set to undefined is the same as
// none either way). A Date, a Map or Set, bytes, NaN, a bigint, or undefined in
// an array would arrive in the app as one thing and in the browser tests as
// another, so the host refuses them instead of letting the tests pass on a
// different value.

/** Where `value` stops being plain data (a path such as `result.items[3].when`), or null when it is plain throughout. */
export function plainDataProblem(value: unknown, path = 'result'): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} is ${value}, which JSON turns into null`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) return `${path}[${i}] is undefined, which JSON turns into null`;
      const p = plainDataProblem(value[i], `${path}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null)
      return `${path} is a ${(value as object).constructor?.name ?? 'non-plain object'}, which JSON does not carry as it is`;
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const p = plainDataProblem(v, `${path}.${k}`);
      if (p) return p;
    }
    return null;
  }
  return `${path} is a ${typeof value}, which JSON does not carry`;
}
