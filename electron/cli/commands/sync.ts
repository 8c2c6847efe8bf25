// `workbench sync`: fetch opportunities, scores and citations into the cache,
// with a progress line on a TTY and a summary per brand.
import { WorkbenchError, type ErrorKind } from '../../../shared/errors';
import { runSync, type SyncEvent } from '../../core/sync';
import { clientFor, withCache, type Ctx } from '../context';
import { exitCodeOf } from '../exit-codes';
import { plain } from '../output';
import { brandIdsOf } from '../brand-name';
import { parse } from '../options';
import { spinner, StatusLine } from '../progress';

export const help = `  sync [--brand BRAND ...] [--no-scores] [--no-citations] [--no-wait]
                                        fetch opportunities, scores and citations into the cache;
                                        a brand another window or terminal is syncing is waited
                                        for (--no-wait: skipped); a brand not yet on this computer
                                        is given by its id (names are looked up in the cache)
`;

/**
 * A brand's phase that failed (the others were still synced) exits with its
 * kind's code (4 for the service's failures); a failure that stopped the sync
 * is reported as itself; "Done" is said only when nothing failed.
 */
export async function run(ctx: Ctx, args: string[]): Promise<number> {
  const { values } = parse(args, {
    brand: { type: 'string', multiple: true },
    'no-scores': { type: 'boolean' },
    'no-citations': { type: 'boolean' },
    'no-wait': { type: 'boolean' },
  });
  const ids = values.brand && (await brandIdsOf(ctx, values.brand, 'sync'));
  const io = ctx.io;
  const status = new StatusLine(io);
  const names = new Map<string, string>();
  const client = await clientFor(ctx, (s) => status.say(s));
  const onEvent = (e: SyncEvent) => {
    if (e.type === 'brand-start') {
      names.set(e.brandId, e.name);
      if (!io.isTTY) io.err(`Syncing ${plain(e.name)}${e.resumed ? ' (resuming)' : ''}…\n`);
    } else if (e.type === 'progress') {
      status.show(
        `${spinner(e.pages)} ${plain(names.get(e.brandId) ?? e.brandId)}: ${e.phase}, ${e.pages} page${e.pages === 1 ? '' : 's'}, ${e.items.toLocaleString('en-US')} items`,
      );
    } else if (e.type === 'blocked') {
      status.clear();
      io.err(`${plain(e.message)}\n`);
    } else if (e.type === 'brand-done') {
      status.blank();
    }
  };
  const summary = await withCache(
    ctx,
    (cache) =>
      runSync(cache, client, {
        brandIds: ids,
        onEvent,
        signal: ctx.signal,
        scores: !values['no-scores'],
        citations: !values['no-citations'],
        holderLabel: 'workbench sync',
        whenBusy: values['no-wait'] ? 'skip' : 'wait',
      }),
    { writes: true },
  );
  status.clear();
  for (const b of summary.brands) {
    if (b.skipped) {
      io.out(`${plain(b.name)}: ${plain(b.skipped)}\n`);
      continue;
    }
    io.out(
      `${plain(b.name)}: ${b.items.toLocaleString('en-US')} opportunities checked; ${b.added} added, ${b.changed} changed, ${b.removed} removed` +
        `${b.warnings ? `, ${b.warnings} warning${b.warnings === 1 ? '' : 's'} (fields of the wrong type were dropped)` : ''}${b.resumed ? ' (resumed)' : ''}\n`,
    );
    for (const f of b.failures) io.err(`  ${f.phase} failed: ${plain(f.message)}\n`);
  }
  if (summary.cancelled)
    throw new WorkbenchError('cancelled', 'Sync stopped. Every page written so far is kept; the next `workbench sync` resumes where this one stopped.');
  if (summary.error) throw new WorkbenchError(summary.error.kind, summary.error.message);
  const failures = summary.brands.flatMap((b) => b.failures);
  if (failures.length === 0) {
    io.out(`Done in ${(summary.durationMs / 1000).toFixed(1)} s.\n`);
    return 0;
  }
  io.err(`Finished in ${(summary.durationMs / 1000).toFixed(1)} s with ${failures.length} failure${failures.length === 1 ? '' : 's'} (above).\n`);
  return worstExit(failures.map((f) => f.kind));
}

/** The exit code of several failures: the first one's, unless one is a bug (1). */
function worstExit(kinds: ErrorKind[]): number {
  const codes = kinds.map(exitCodeOf);
  return codes.includes(1) ? 1 : codes[0]!;
}
