// `workbench`: the command line over the same core as the desktop app.
// Exit codes: 0 done; 2 bad input or usage (nothing sent); 3 no usable key or
// the key was rejected; 4 the service could not be reached or kept failing;
// 1 anything else.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync } from 'node:fs';
import { DEFAULT_BASE_URL, DIFFICULTIES, OPPORTUNITY_TYPES, STATUSES, type Status } from '../../shared/domain';
import { checkApiKeyShape, checkBrandId, checkDate, redactKeys } from '../../shared/rules';
import { checkApiBaseUrl, DEFAULT_API_ORIGIN } from '../../shared/api-origin';
import { ApiError } from '../core/api/errors';
import { TrakkrClient } from '../core/api/client';
import { Cache } from '../core/store/cache';
import { CacheError, moveAside } from '../core/store/db';
import { LIST_SORTS, type ListFilter, type ListSort } from '../core/store/opportunities';
import { defaultCachePath } from '../core/paths';
import { KeychainError, KeychainSecretStore } from '../core/secrets';
import { runSync, type SyncEvent } from '../core/sync';
import { DELIMITERS, EXPORT_PRESETS, exportCsv, previewExport } from '../core/export/csv-export';
import type { SecretStore } from '../core/seams';

export class UsageError extends Error {}

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  /** Keychain; tests pass a memory store. */
  secrets?: SecretStore;
}

const HELP = `workbench: Outreach Workbench on the command line

Usage: workbench <command> [options]

Commands:
  brands [--json]                       brands the key reaches
  sync [--brand ID ...] [--no-scores] [--no-citations]
                                        fetch opportunities, scores and citations into the cache
  list --brand ID [--json] [--status S] [--type T] [--difficulty D] [--domain SUB]
       [--search TEXT] [--include-archived] [--sort priority_score|fit_score|last_seen|title|domain]
       [--limit N]                      opportunities from the cache (works offline)
  triage --brand ID --id OPP_ID [--status New|"In Progress"|Done|Archived|none]
       [--note TEXT] [--star|--unstar] [--contacted [YYYY-MM-DD]]
  scores --brand ID [--start D] [--end D] [--breakdown model,prompt] [--json]
  citations --brand ID [--mode citations|search-queries|knowledge] [--json]
  export --brand ID --preset contacts|opportunities --out FILE [list filters]
       [--exclude-catch-all | --only-catch-all] [--per-pair] [--skip-contacted] [--mark-exported]
       [--bom] [--delimiter ,|;|tab] [--flatten-newlines] [--max-rows N [--split]] [--raw] [--check]
                                        CSV for mail tools (from the cache; --check only reports)
  dnc add|remove ADDRESS-OR-DOMAIN | dnc list
                                        the do-not-contact list, honoured by every export
  key set | key status | key clear      the API key in the OS keychain (set reads standard input)
  cache path | cache reset              where the cache is; move a damaged cache aside

Global options:
  --base-url URL   API base URL (env TRAKKR_BASE_URL; default ${DEFAULT_BASE_URL}); https:// only,
                   or http:// to this computer (localhost, 127.x.x.x, [::1]) for the simulator
  --db PATH        cache file (env WORKBENCH_DB; default: the desktop app's cache)
  --rate N         requests per minute to stay under (env WORKBENCH_RATE; default 60, the Scale plan;
                   Enterprise 300, test keys 20; 0 turns pacing off)
  --debug          show stack traces
  --help           this text

The key: env TRAKKR_API_KEY, else the desktop app's keychain entry.
Exit codes: 0 done, 2 bad input, 3 no usable key or key rejected, 4 service unreachable, 1 other.
`;

const GLOBAL = {
  'base-url': { type: 'string' },
  db: { type: 'string' },
  rate: { type: 'string' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...GLOBAL, ...options }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${(e as Error).message.replace(/\. To specify a positional.*$/s, '.')}`);
  }
}

function brandOf(v: string | undefined): string {
  if (v === undefined) throw new UsageError('--brand is required (see `workbench brands` for the ids).');
  const r = checkBrandId(v, '--brand');
  if (!r.ok) throw new UsageError(r.message);
  return r.value;
}

function oneOf<T extends string>(values: readonly T[], v: string | undefined, flag: string): T | undefined {
  if (v === undefined) return undefined;
  const hit = values.find((x) => x.toLowerCase() === v.toLowerCase());
  if (!hit) throw new UsageError(`${flag} must be one of: ${values.join(', ')}.`);
  return hit;
}

interface Ctx {
  io: Io;
  baseUrl: string;
  dbPath: string;
  secrets: SecretStore;
  /** Requests per minute (0: no pacing). */
  rate: number;
  /** Every request goes through this: it says once, before the first, when the API is not the default one. */
  fetch: typeof fetch;
}

async function keyFor(ctx: Ctx): Promise<string> {
  const fromEnv = ctx.io.env.TRAKKR_API_KEY;
  if (fromEnv) {
    const r = checkApiKeyShape(fromEnv);
    if (!r.ok) throw new UsageError(`TRAKKR_API_KEY: ${r.message}`);
    return r.value;
  }
  const key = await ctx.secrets.get();
  if (!key) throw new ApiError('no-key', 'No API key is stored. Run `workbench key set` (it reads the key from standard input) or set TRAKKR_API_KEY.');
  return key;
}

async function clientFor(ctx: Ctx, onWait?: (s: string) => void): Promise<TrakkrClient> {
  return new TrakkrClient({
    baseUrl: ctx.baseUrl,
    fetch: ctx.fetch,
    apiKey: await keyFor(ctx),
    requestsPerMinute: ctx.rate,
    onWait: onWait ? (w) => onWait(`${w.reason === 'rate-limit' ? 'Rate-limited' : 'Retrying'}: waiting ${Math.ceil(w.seconds)} s${w.capped ? ' (the service asked for longer; capped)' : ''}…`) : undefined,
  });
}

async function withCache<T>(ctx: Ctx, fn: (c: Cache) => Promise<T> | T): Promise<T> {
  const cache = await Cache.open(ctx.dbPath);
  try {
    return await fn(cache);
  } finally {
    cache.close();
  }
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
/** Text from the API on a terminal: no control characters (escape sequences could rewrite the screen). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const plain = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

// ---- commands ------------------------------------------------------------------

async function brands(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  parse(args, {});
  const client = await clientFor(ctx);
  const { brands } = await client.brands();
  await withCache(ctx, (c) => c.brands.replaceAll(brands, new Date().toISOString()));
  if (asJson) ctx.io.out(json(brands.map((b) => ({ id: b.id, name: b.name }))));
  else ctx.io.out(brands.length ? table([['ID', 'NAME'], ...brands.map((b) => [b.id, plain(b.name)])]) : 'This key reaches no brands.\n');
}

async function sync(ctx: Ctx, args: string[]): Promise<number> {
  const { values } = parse(args, { brand: { type: 'string', multiple: true }, 'no-scores': { type: 'boolean' }, 'no-citations': { type: 'boolean' } });
  const ids = values.brand?.map(brandOf);
  const io = ctx.io;
  let line = '';
  const status = (s: string) => {
    if (!io.isTTY) return;
    const text = clip(s, 100);
    io.err(`\r${text.padEnd(line.length)}`);
    line = text;
  };
  const names = new Map<string, string>();
  const client = await clientFor(ctx, (s) => (io.isTTY ? status(s) : io.err(s + '\n')));
  const onEvent = (e: SyncEvent) => {
    if (e.type === 'brand-start') {
      names.set(e.brandId, e.name);
      if (!io.isTTY) io.err(`Syncing ${plain(e.name)}${e.resumed ? ' (resuming)' : ''}…\n`);
    } else if (e.type === 'progress') {
      const spin = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'[e.pages % 10];
      status(`${spin} ${plain(names.get(e.brandId) ?? e.brandId)}: ${e.phase}, ${e.pages} page${e.pages === 1 ? '' : 's'}, ${e.items.toLocaleString('en-US')} items`);
    } else if (e.type === 'brand-done') {
      status('');
      if (io.isTTY) io.err('\r');
    }
  };
  const summary = await withCache(ctx, (cache) => runSync(cache, client, { brandIds: ids, onEvent, scores: !values['no-scores'], citations: !values['no-citations'] }));
  if (io.isTTY && line) io.err('\r' + ' '.repeat(line.length) + '\r');
  for (const b of summary.brands) {
    io.out(
      `${plain(b.name)}: ${b.items.toLocaleString('en-US')} opportunities checked; ${b.added} added, ${b.changed} changed, ${b.removed} removed` +
        `${b.warnings ? `, ${b.warnings} warning${b.warnings === 1 ? '' : 's'} (fields of the wrong type were dropped)` : ''}${b.resumed ? ' (resumed)' : ''}\n`,
    );
    for (const f of b.failures) io.err(`  ${f.phase} failed: ${f.message}\n`);
  }
  io.out(`Done in ${(summary.durationMs / 1000).toFixed(1)} s.\n`);
  if (summary.cancelled) throw new ApiError('cancelled', 'Sync cancelled.');
  if (summary.error) throw new ApiError(summary.error.kind as ApiError['kind'], summary.error.message);
  const failures = summary.brands.flatMap((b) => b.failures);
  return failures.length ? 4 : 0;
}

function listFilter(values: Record<string, string | boolean | string[] | undefined>, brandId: string): ListFilter {
  const sortFlag = values.sort as string | undefined;
  const sortMap: Record<string, ListSort> = { priority_score: 'priority', fit_score: 'fit', last_seen: 'last_seen', priority: 'priority', fit: 'fit', title: 'title', domain: 'domain' };
  if (sortFlag !== undefined && !sortMap[sortFlag]) throw new UsageError(`--sort must be one of: priority_score, fit_score, last_seen, ${LIST_SORTS.slice(3).join(', ')}.`);
  return {
    brandId,
    status: oneOf(STATUSES, values.status as string | undefined, '--status'),
    type: oneOf(OPPORTUNITY_TYPES, values.type as string | undefined, '--type'),
    difficulty: oneOf(DIFFICULTIES, values.difficulty as string | undefined, '--difficulty'),
    domain: values.domain as string | undefined,
    search: values.search as string | undefined,
    includeArchived: values['include-archived'] === true,
    includeRemoved: values['include-removed'] === true,
    sort: sortFlag ? sortMap[sortFlag] : 'priority',
  };
}

const LIST_OPTIONS = {
  brand: { type: 'string' },
  status: { type: 'string' },
  type: { type: 'string' },
  difficulty: { type: 'string' },
  domain: { type: 'string' },
  search: { type: 'string' },
  'include-archived': { type: 'boolean' },
  'include-removed': { type: 'boolean' },
  sort: { type: 'string' },
  limit: { type: 'string' },
} as const;

async function list(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, LIST_OPTIONS);
  const brandId = brandOf(values.brand);
  const filter = listFilter(values, brandId);
  const limit = values.limit === undefined ? 100_000 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a whole number of at least 1.');
  await withCache(ctx, (cache) => {
    const out: ReturnType<typeof cache.opportunities.list> = [];
    for (let offset = 0; out.length < limit; ) {
      const page = cache.opportunities.list(filter, { limit: Math.min(5000, limit - out.length), offset });
      out.push(...page);
      offset += page.length;
      if (page.length === 0) break;
    }
    if (asJson) {
      const contacts = cache.opportunities.contactsFor(brandId, out.map((o) => o.id));
      ctx.io.out(
        json(
          out.map((o) => ({
            id: o.id,
            unique_key: o.unique_key,
            title: o.title,
            domain: o.domain,
            url: o.url,
            opportunity_type: o.opportunity_type,
            status: o.status,
            server_status: o.server_status,
            archived: o.archived,
            removed_on_server: o.removed_on_server,
            priority_score: o.priority_score,
            fit_score: o.fit_score,
            difficulty: o.difficulty,
            last_seen: o.last_seen,
            starred: o.starred,
            note: o.note,
            contacted_at: o.contacted_at,
            exported_at: o.exported_at,
            contacts: (contacts.get(o.id) ?? []).map((c) => ({ email: c.email, catch_all: c.catchAll, valid: c.valid })),
          })),
        ),
      );
      return;
    }
    if (out.length === 0) {
      const any = cache.opportunities.count({ brandId, includeArchived: true, includeRemoved: true });
      ctx.io.out(any ? 'No opportunities match these filters.\n' : 'The cache holds no opportunities for this brand yet. Run `workbench sync` first.\n');
      return;
    }
    ctx.io.out(
      table([
        ['PRIO', 'FIT', 'STATUS', 'TYPE', 'DIFF', 'CONTACTS', 'DOMAIN', 'TITLE', 'ID'],
        ...out.map((o) => [
          String(o.priority_score ?? ''),
          String(o.fit_score ?? ''),
          (o.status ?? '') + (o.removed_on_server ? ' (removed)' : ''),
          o.opportunity_type === 'publication-gap' ? 'gap' : 'lhf',
          o.difficulty ?? '',
          `${o.contact_count}${o.catch_all_count ? ` (${o.catch_all_count} catch-all)` : ''}`,
          clip(plain(o.domain), 28),
          clip(plain(o.title), 60),
          o.id,
        ]),
      ]),
    );
  });
}

async function triage(ctx: Ctx, args: string[]): Promise<void> {
  const { values } = parse(args, {
    brand: { type: 'string' },
    id: { type: 'string' },
    status: { type: 'string' },
    note: { type: 'string' },
    star: { type: 'boolean' },
    unstar: { type: 'boolean' },
    contacted: { type: 'string' },
  });
  const brandId = brandOf(values.brand);
  if (!values.id) throw new UsageError('--id is required (the opportunity id from `workbench list`).');
  let status: Status | null | undefined;
  if (values.status !== undefined) status = values.status.toLowerCase() === 'none' ? null : oneOf(STATUSES, values.status, '--status');
  let contacted: string | undefined;
  if (values.contacted !== undefined) {
    const d = values.contacted === '' || values.contacted === 'today' ? new Date().toISOString().slice(0, 10) : values.contacted;
    const r = checkDate(d, '--contacted');
    if (!r.ok) throw new UsageError(r.message);
    contacted = r.value;
  }
  if (status === undefined && values.note === undefined && !values.star && !values.unstar && contacted === undefined) {
    throw new UsageError('Say what to change: --status, --note, --star, --unstar or --contacted.');
  }
  await withCache(ctx, (cache) => {
    if (!cache.opportunities.exists(brandId, values.id!)) throw new UsageError(`No opportunity ${values.id} for brand ${brandId} in the cache. Run \`workbench sync\`, or check the id with \`workbench list\`.`);
    cache.triage.set(brandId, values.id!, {
      ...(status !== undefined ? { status } : {}),
      ...(values.note !== undefined ? { note: values.note } : {}),
      ...(values.star ? { starred: true } : values.unstar ? { starred: false } : {}),
      ...(contacted ? { contacted_at: contacted } : {}),
    });
    const d = cache.opportunities.get(brandId, values.id!)!;
    ctx.io.out(`${plain(d.item.title)}: status ${d.item.status}${d.triage.starred ? ', starred' : ''}${d.triage.note ? `, note saved (${d.triage.note.length} characters)` : ''}${d.triage.contacted_at ? `, contacted ${d.triage.contacted_at}` : ''}.\n`);
  });
}

async function scores(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, { brand: { type: 'string' }, start: { type: 'string' }, end: { type: 'string' }, breakdown: { type: 'string' } });
  const brand = brandOf(values.brand);
  const breakdown = values.breakdown ? values.breakdown.split(',').map((s) => s.trim()).filter(Boolean) : [];
  const q = { brand, breakdown: breakdown as ('model' | 'prompt')[], start_date: values.start, end_date: values.end };
  const client = await clientFor(ctx, (s) => ctx.io.err(s + '\n'));
  const r = await client.scores(q).catch((e: unknown) => {
    if (e instanceof ApiError && e.kind === 'invalid-input') throw new UsageError(e.message);
    throw e;
  });
  if (asJson) {
    ctx.io.out(json(r.response));
    return;
  }
  const resp = r.response as { brand_name?: string; start_date?: string; end_date?: string };
  ctx.io.out(`${plain(resp.brand_name ?? brand)}: ${resp.start_date} to ${resp.end_date}\n`);
  const extra = breakdown.length ? breakdown.map((b) => b.toUpperCase()) : [];
  ctx.io.out(
    table([
      ['DATE', ...extra, 'VISIBILITY', 'PRESENCE'],
      ...r.points.map((p) => [p.date, ...breakdown.map((b) => clip(plain(String((p as Record<string, unknown>)[b] ?? '')), 40)), String(p.visibility), String(p.presence)]),
    ]),
  );
}

async function citations(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, { brand: { type: 'string' }, mode: { type: 'string' }, domain: { type: 'string' } });
  const brand = brandOf(values.brand);
  const mode = oneOf(['citations', 'search-queries', 'knowledge'] as const, values.mode, '--mode') ?? 'citations';
  const client = await clientFor(ctx, (s) => ctx.io.err(s + '\n'));
  const items: Record<string, unknown>[] = [];
  let first: { updatedAt?: string; summary?: unknown } | undefined;
  for await (const page of client.citationsPages({ brand, mode, limit: 500, domain: values.domain })) {
    first ??= { updatedAt: page.updatedAt, summary: page.summary };
    items.push(...page.items);
  }
  if (asJson) {
    ctx.io.out(json({ brand_id: brand, mode, updated_at: first?.updatedAt ?? null, summary: first?.summary ?? null, items }));
    return;
  }
  if (mode !== 'citations') {
    ctx.io.out(`${items.length} ${mode} records (shape not published; use --json to see them whole).\n`);
    return;
  }
  ctx.io.out(
    table([
      ['CITED', 'DR', 'PA', 'BRAND?', 'DOMAIN', 'URL'],
      ...items.map((c) => [String(c.times_cited ?? ''), String(c.domain_rating ?? ''), String(c.page_authority ?? ''), c.mentions_brand ? 'yes' : 'no', clip(plain(String(c.domain ?? '')), 28), clip(plain(String(c.url ?? '')), 80)]),
    ]),
  );
}

async function exportCmd(ctx: Ctx, args: string[]): Promise<void> {
  const { values } = parse(args, {
    ...LIST_OPTIONS,
    preset: { type: 'string' },
    out: { type: 'string' },
    'exclude-catch-all': { type: 'boolean' },
    'only-catch-all': { type: 'boolean' },
    'per-pair': { type: 'boolean' },
    'skip-contacted': { type: 'boolean' },
    'mark-exported': { type: 'boolean' },
    bom: { type: 'boolean' },
    delimiter: { type: 'string' },
    'flatten-newlines': { type: 'boolean' },
    'max-rows': { type: 'string' },
    split: { type: 'boolean' },
    raw: { type: 'boolean' },
    check: { type: 'boolean' },
  });
  const brandId = brandOf(values.brand);
  const preset = oneOf(EXPORT_PRESETS, values.preset ?? 'contacts', '--preset')!;
  if (!values.out && !values.check) throw new UsageError('--out FILE is required (or --check to see the row count and warnings only).');
  if (values['exclude-catch-all'] && values['only-catch-all']) throw new UsageError('Use --exclude-catch-all or --only-catch-all, not both.');
  const delimiter = values.delimiter === undefined ? ',' : (DELIMITERS as Record<string, ',' | ';' | '\t'>)[values.delimiter];
  if (!delimiter) throw new UsageError('--delimiter must be , ; or tab.');
  let maxRows: number | undefined;
  if (values['max-rows'] !== undefined) {
    maxRows = Number(values['max-rows']);
    if (!Number.isInteger(maxRows) || maxRows < 1) throw new UsageError('--max-rows must be a whole number of at least 1.');
  }
  if (values.split && maxRows === undefined) throw new UsageError('--split needs --max-rows N (the most rows per file).');
  const { brandId: _b, ...filter } = listFilter(values, brandId);
  const opts = {
    brandId,
    preset,
    filter,
    perPair: values['per-pair'],
    excludeCatchAll: values['exclude-catch-all'],
    onlyCatchAll: values['only-catch-all'],
    skipContacted: values['skip-contacted'],
    markExported: values['mark-exported'],
    bom: values.bom,
    delimiter,
    flattenNewlines: values['flatten-newlines'],
    maxRows,
    split: values.split,
    raw: values.raw,
  };
  await withCache(ctx, async (cache) => {
    if (cache.opportunities.count({ brandId, includeArchived: true, includeRemoved: true }) === 0) {
      throw new UsageError('The cache holds no opportunities for this brand yet. Run `workbench sync` first.');
    }
    if (values.check) {
      const c = previewExport(cache, opts);
      ctx.io.out(`${c.rows.toLocaleString('en-US')} row${c.rows === 1 ? '' : 's'} would be exported.\n`);
      for (const w of c.warnings) ctx.io.err(`warning: ${w}\n`);
      return;
    }
    const r = await exportCsv(cache, { ...opts, out: values.out! });
    for (const w of r.warnings) ctx.io.err(`warning: ${w}\n`);
    ctx.io.out(`Exported ${r.rows.toLocaleString('en-US')} row${r.rows === 1 ? '' : 's'} to ${r.files.join(', ')}${r.markedExported ? `; ${r.markedExported} opportunities marked exported` : ''}.\n`);
  });
}

async function dnc(ctx: Ctx, args: string[]): Promise<void> {
  const { positionals } = parse(args, {});
  const [sub, ...rest] = positionals;
  await withCache(ctx, (cache) => {
    try {
      if (sub === 'list') {
        const all = cache.doNotContact.list();
        ctx.io.out(all.length ? table([['KIND', 'VALUE', 'ADDED'], ...all.map((d) => [d.kind, d.value, d.added_at.slice(0, 10)])]) : 'The do-not-contact list is empty.\n');
      } else if (sub === 'add' && rest.length) {
        for (const v of rest) {
          const e = cache.doNotContact.add(v);
          ctx.io.out(`Added ${e.kind} ${e.value} to the do-not-contact list.\n`);
        }
      } else if (sub === 'remove' && rest.length) {
        for (const v of rest) ctx.io.out(cache.doNotContact.remove(v) ? `Removed ${v.trim().toLowerCase()}.\n` : `${v} was not on the list.\n`);
      } else throw new UsageError('Use `workbench dnc add ADDRESS-OR-DOMAIN`, `workbench dnc remove ADDRESS-OR-DOMAIN` or `workbench dnc list`.');
    } catch (e) {
      if (e instanceof RangeError) throw new UsageError(e.message);
      throw e;
    }
  });
}

async function key(ctx: Ctx, args: string[]): Promise<void> {
  const { positionals } = parse(args, {});
  const sub = positionals[0];
  if (sub === 'set') {
    if (ctx.io.isTTY) ctx.io.err('Paste your API key and press Enter: ');
    const raw = (await ctx.io.readStdin()).trim();
    const shape = checkApiKeyShape(raw);
    if (!shape.ok) throw new UsageError(shape.message);
    const client = new TrakkrClient({ baseUrl: ctx.baseUrl, fetch: ctx.fetch, apiKey: shape.value, maxAttempts: 2 });
    const { brands } = await client.brands();
    await ctx.secrets.set(shape.value);
    ctx.io.out(`Key checked (${brands.length} brand${brands.length === 1 ? '' : 's'} reachable) and stored in the system keychain, ending in …${shape.value.slice(-4)}.\n`);
  } else if (sub === 'status') {
    const stored = await ctx.secrets.get();
    if (!stored) {
      ctx.io.out(ctx.io.env.TRAKKR_API_KEY ? 'No key in the keychain; TRAKKR_API_KEY is set and will be used.\n' : 'No key is stored. Run `workbench key set`.\n');
      return;
    }
    const client = new TrakkrClient({ baseUrl: ctx.baseUrl, fetch: ctx.fetch, apiKey: stored, maxAttempts: 2 });
    try {
      const { brands } = await client.brands();
      ctx.io.out(`A key ending in …${stored.slice(-4)} is stored; last check OK (${brands.length} brand${brands.length === 1 ? '' : 's'}).\n`);
    } catch (e) {
      ctx.io.out(`A key ending in …${stored.slice(-4)} is stored; last check failed: ${(e as Error).message}\n`);
      throw e;
    }
  } else if (sub === 'clear') {
    await ctx.secrets.clear();
    ctx.io.out('The stored key was removed from the system keychain.\n');
  } else throw new UsageError('Use `workbench key set`, `workbench key status` or `workbench key clear`.');
}

async function cacheCmd(ctx: Ctx, args: string[]): Promise<void> {
  const { positionals } = parse(args, {});
  if (positionals[0] === 'path') ctx.io.out(ctx.dbPath + '\n');
  else if (positionals[0] === 'reset') {
    if (!existsSync(ctx.dbPath)) {
      ctx.io.out(`There is no cache at ${ctx.dbPath}; nothing to do.\n`);
      return;
    }
    const aside = moveAside(ctx.dbPath);
    ctx.io.out(`The cache was moved aside to ${aside}; the next sync builds a fresh one. (Triage and notes stay in the moved file.)\n`);
  } else throw new UsageError('Use `workbench cache path` or `workbench cache reset`.');
}

// ---- entry -------------------------------------------------------------------------

/** Every command; one returning nothing exits 0. */
const COMMANDS: Record<string, (ctx: Ctx, args: string[], asJson: boolean) => Promise<number | void>> = {
  brands,
  sync: (ctx, args) => sync(ctx, args),
  list,
  triage: (ctx, args) => triage(ctx, args),
  scores,
  citations,
  export: (ctx, args) => exportCmd(ctx, args),
  dnc: (ctx, args) => dnc(ctx, args),
  key: (ctx, args) => key(ctx, args),
  cache: (ctx, args) => cacheCmd(ctx, args),
};

export async function run(argv: string[], io: Io): Promise<number> {
  const debug = argv.includes('--debug');
  const command = argv.find((a) => !a.startsWith('-'));
  const rest = command === undefined ? argv : argv.filter((a, i) => i !== argv.indexOf(command));
  try {
    if (command === undefined || argv.includes('--help') || argv.includes('-h') || command === 'help') {
      io.out(HELP);
      return command === undefined && !argv.includes('--help') && !argv.includes('-h') ? 2 : 0;
    }
    const g = parseArgs({ args: rest, options: GLOBAL, strict: false, allowPositionals: true }).values;
    const baseUrl = apiBaseUrl(g['base-url'], io.env.TRAKKR_BASE_URL);
    const rateText = (g.rate as string | undefined) ?? io.env.WORKBENCH_RATE ?? '60';
    const rate = Number(rateText);
    if (!Number.isFinite(rate) || rate < 0) throw new UsageError(`--rate must be a number of requests per minute (0 for no pacing); got "${rateText}".`);
    const ctx: Ctx = {
      io,
      rate,
      baseUrl: baseUrl.url,
      fetch: announcingFetch(baseUrl, io),
      dbPath: (g.db as string | undefined) ?? defaultCachePath(io.env),
      secrets: io.secrets ?? new KeychainSecretStore(),
    };
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`Unknown command "${command}". Run \`workbench --help\` for the list.`);
    return (await run(ctx, rest, g.json === true)) ?? 0;
  } catch (e) {
    return report(e, io, debug);
  }
}

/**
 * The API base URL from --base-url, else TRAKKR_BASE_URL, else the default:
 * https://, or http:// to this computer only (the simulator). Refused before
 * anything is sent, naming where the address came from.
 */
function apiBaseUrl(flag: unknown, env: string | undefined): { url: string; origin: string } {
  if (flag !== undefined && typeof flag !== 'string') throw new UsageError('--base-url needs an address, e.g. --base-url https://api.trakkr.ai');
  const source = flag !== undefined ? '--base-url' : env ? 'TRAKKR_BASE_URL' : null;
  const r = checkApiBaseUrl(flag ?? (env || DEFAULT_BASE_URL));
  if (!r.ok) throw new UsageError(`${source ?? 'The default API address'}: ${r.reason} Nothing was sent.`);
  return r;
}

/** Global fetch, saying once on stderr, before the first request, that the API is not the default one. */
function announcingFetch(api: { url: string; origin: string }, io: Io): typeof fetch {
  if (api.origin === DEFAULT_API_ORIGIN) return (input, init) => fetch(input, init);
  let said = false;
  return (input, init) => {
    if (!said) {
      said = true;
      io.err(`Using the API at ${api.url} (not the default).\n`);
    }
    return fetch(input, init);
  };
}

function report(e: unknown, io: Io, debug: boolean): number {
  const say = (msg: string) => io.err(redactKeys(msg).trimEnd() + '\n');
  if (debug && e instanceof Error && e.stack) say(e.stack);
  if (e instanceof UsageError) {
    say(`workbench: ${e.message}`);
    return 2;
  }
  if (e instanceof ApiError) {
    say(`workbench: ${e.message}`);
    if (e.kind === 'invalid-input') return 2;
    if (e.isAuth) {
      if (e.kind !== 'no-key') say('Check the key in your Trakkr account settings (a newly generated key replaces the old one), then run `workbench key set`.');
      return 3;
    }
    if (e.isUnavailable || e.kind === 'bad-response' || e.kind === 'cursor-loop') return 4;
    return 1;
  }
  if (e instanceof KeychainError) {
    say(`workbench: ${e.message}`);
    return 3;
  }
  if (e instanceof CacheError) {
    say(`workbench: ${e.message}`);
    return 1;
  }
  say(`workbench: ${e instanceof Error ? e.message : String(e)}${debug ? '' : ' (run with --debug for details)'}`);
  return 1;
}

