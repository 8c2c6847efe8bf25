// A value made the first time it is asked for, then kept: a schema built on
// first use instead of when its module loads (the core's start builds none it
// does not call with; see shared/contract/parts.ts and shared/user-record.ts).

/** `make`'s value, made by the first call and returned by every call after it. */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
