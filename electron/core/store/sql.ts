// SQL composed from fragments: the `sql` tagged template gives text with `?`
// parameters and their values; values are always bound, never spliced in.
const FRAGMENT = Symbol('sql');

/** What SQLite can bind (better-sqlite3 refuses booleans and undefined: say 1/0 and null). */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** A piece of SQL: its text (with `?` for every value) and the values, in order. */
export interface Sql {
  readonly [FRAGMENT]: true;
  readonly text: string;
  readonly params: readonly SqlValue[];
}

const fragment = (text: string, params: readonly SqlValue[]): Sql => ({ [FRAGMENT]: true, text, params });

function isSql(v: unknown): v is Sql {
  return typeof v === 'object' && v !== null && (v as { [FRAGMENT]?: unknown })[FRAGMENT] === true;
}

/**
 * sql`… ${value} … ${fragment} …`: each value becomes a `?` parameter; a
 * fragment nests with its own parameters. The only way SQL text is built.
 */
export function sql(strings: TemplateStringsArray, ...values: readonly (Sql | SqlValue)[]): Sql {
  let text = strings[0]!;
  const params: SqlValue[] = [];
  values.forEach((v, i) => {
    if (isSql(v)) {
      text += v.text;
      params.push(...v.params);
    } else {
      text += '?';
      params.push(v);
    }
    text += strings[i + 1]!;
  });
  return fragment(text, params);
}

/** Fragments one after another, with a separator fragment between them. */
export function sqlJoin(parts: readonly Sql[], separator: Sql): Sql {
  const params: SqlValue[] = [];
  parts.forEach((p, i) => {
    if (i > 0) params.push(...separator.params);
    params.push(...p.params);
  });
  return fragment(parts.map((p) => p.text).join(separator.text), params);
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A column, table or index name, as SQL text. Only names on the caller's
 * allow-list (declared in code, never taken from input; or, for the recovery
 * of a damaged file, the index names that file's own schema lists, each
 * checked again here) and of plain letters, digits and _.
 */
export function identifier(name: string, allowList: readonly string[]): Sql {
  if (!allowList.includes(name) || !NAME.test(name)) throw new RangeError(`Identifier "${name}" is not on the allow-list.`);
  return fragment(name, []);
}

/**
 * A parameter of a statement prepared once and run many times (the sync's
 * writes): its value is bound at each run, in order, like every value.
 */
export const slot: Sql = fragment('?', []);
