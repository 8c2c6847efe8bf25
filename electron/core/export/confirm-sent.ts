// "I sent these": an export is not a contact until the person says the mail
// went out (from their mail tool, later). Then each address it carried is
// contacted, today, in the user's triage of its opportunity: the contacted
// date (kept when there is one already), the addresses used (added to any
// recorded before) and the stage moved on (New or Drafted to Contacted), as a
// contact marked by hand. A follow-ups export marks the follow-up sent
// instead. It is one triage action through the owner of the user's record
// (app/triage.ts), so it can be undone like any other. Confirming the same
// export twice changes nothing.
import { addressIdentity } from '../../../shared/contacts';
import { WorkbenchError } from '../../../shared/errors';
import { applyEach } from '../app/triage';
import type { Cache } from '../store/cache';
import { missingIds } from '../store/opportunity-detail';
import { CARRIED_KEPT_DAYS } from '../store/exports-log';
import { PRESETS, sentAs, type ExportPreset } from '../../../shared/export-presets';

export interface ConfirmedSent {
  /** Opportunities whose triage changed. */
  updated: number;
  /** Addresses marked contacted. */
  addresses: number;
  /** The day it was confirmed before (then nothing changed), else null. */
  alreadySent: string | null;
  /** The export's file name and preset, for the words. */
  fileName: string;
  preset: string;
}

/** No export by that id on this computer. */
export class ExportNotFound extends WorkbenchError {
  constructor(message: string) {
    super('not-found', message, { field: 'exportId' });
  }
}

/** Mark an export's addresses contacted (or followed up) `today`; `id`: an export id, or 'latest'. */
export function confirmExportSent(cache: Cache, id: string, today: string, now = new Date().toISOString()): ConfirmedSent {
  const e = cache.exports.sent(id);
  if (!e) throw new ExportNotFound(id === 'latest' ? 'No export has been made yet.' : `No export ${id} is known on this computer.`);
  const base = { fileName: e.file_name, preset: e.preset };
  if (e.sent_at) return { ...base, updated: 0, addresses: 0, alreadySent: e.sent_at.slice(0, 10) };
  if (e.carried.length === 0 && e.rows > 0 && PRESETS[e.preset as ExportPreset]?.forMail)
    throw new WorkbenchError(
      'not-found',
      `${e.file_name} was exported on ${e.at.slice(0, 10)}, more than ${CARRIED_KEPT_DAYS} days before the latest export: the addresses it carried are no longer kept. Mark them contacted in the list instead.`,
      { field: 'exportId' },
    );
  // The opportunities still in the cache (one reset or removed since is passed over).
  const gone = new Set(
    missingIds(
      cache.readable,
      e.brand_id,
      e.carried.map(([oid]) => oid),
    ),
  );
  const carried = new Map(e.carried.filter(([oid]) => !gone.has(oid)));
  const as = sentAs(e.preset);
  const followUps = as.kind === 'followed-up';
  const applied = applyEach(
    cache,
    e.brand_id,
    [...carried.keys()],
    (oid, t) => {
      if (followUps) return { do: 'followed-up', on: today };
      const before = t.contacted_addresses ?? [];
      const known = new Set(before.map(addressIdentity));
      const used = [...before, ...carried.get(oid)!.filter((a) => !known.has(addressIdentity(a)))];
      return { do: 'contacted', on: t.contacted_at ?? today, addresses: used, subject: t.contacted_subject };
    },
    {
      kind: as.kind,
      label: `Marked ${as.words} (sent from ${e.file_name})`,
      pitched: true,
      also: () => cache.exports.markSent(e.id, now),
    },
    { today, senderName: '', now },
  );
  const addresses = [...carried.values()].reduce((n, a) => n + a.length, 0);
  return { ...base, updated: applied.changed.length, addresses, alreadySent: null };
}
