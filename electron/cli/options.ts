// Option parsing shared by every command: the global flags, strict parsing that
// turns mistakes into usage errors (exit 2), and the checks for common values.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { WorkbenchError } from '../../shared/errors';
import { checkBrandId } from '../../shared/rules';

/** Bad input or usage: an invalid-input error (exit 2), nothing sent. */
export class UsageError extends WorkbenchError {
  override name = 'UsageError';
  constructor(message: string) {
    super('invalid-input', message);
  }
}

export type Options = NonNullable<ParseArgsConfig['options']>;

/** Accepted by every command, wherever they stand on the line. */
export const GLOBAL = {
  'base-url': { type: 'string' },
  db: { type: 'string' },
  rate: { type: 'string' },
  'lock-wait': { type: 'string' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
} as const satisfies Options;

/**
 * The command and the rest of the line. The command is the first word that is
 * not an option's value, so the global options stand before or after it
 * (`workbench --db X list …` as `workbench list --db X …`). Before the command
 * only the global options are known: any other option there is refused, saying
 * where it goes, rather than taking the command as its value.
 */
export function splitCommand(argv: string[]): { command: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (!a.startsWith('-') || a === '-') return { command: a, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    const name = a.startsWith('--') ? a.slice(2).split('=')[0]! : a.slice(1);
    const option = Object.entries(GLOBAL).find(([long, o]) => long === name || ('short' in o && o.short === name))?.[1];
    if (!option) {
      const flag = a.split('=')[0]!;
      throw new UsageError(`${flag} is not one of the options that go before the command. Put it after the command: workbench <command> ${flag} …`);
    }
    if (option.type === 'string' && !a.includes('=')) i++; // its value, whatever it looks like
  }
  return { command: undefined, rest: argv };
}

/** A command's arguments with its own options and the global ones; an unknown flag is a usage error. */
export function parse<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...GLOBAL, ...options }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${(e as Error).message.replace(/\. To specify a positional.*$/s, '.')}`);
  }
}

/** The --brand value as an id, required and checked (a name is looked up first: brand-name.ts). */
export function brandOf(v: string | undefined): string {
  if (v === undefined) throw new UsageError("--brand is required: the brand's name or id (`workbench brands` lists them).");
  const r = checkBrandId(v, '--brand');
  if (!r.ok) throw new UsageError(r.message);
  return r.value;
}

/** One of a fixed set of values, matched without regard to case; undefined when the flag is absent. */
export function oneOf<T extends string>(values: readonly T[], v: string | undefined, flag: string): T | undefined {
  if (v === undefined) return undefined;
  const hit = values.find((x) => x.toLowerCase() === v.toLowerCase());
  if (!hit) throw new UsageError(`${flag} must be one of: ${values.join(', ')}.`);
  return hit;
}

/** A whole number of at least 1 from a flag's text. */
export function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1.`);
  return n;
}
