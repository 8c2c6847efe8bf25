// "I sent these": an export is not a contact until the person says the mail
// went out (from their mail tool, later). Then each address it carried is
// contacted, today, in the user's triage of its opportunity: the contacted
// date (kept when there is one already), the addresses used (added to any
// recorded before) and the stage moved on (New or Drafted to Contacted), as a
// contact marked by hand. A follow-ups export marks the follow-up sent
// instead. Confirming the same export twice changes nothing.
import { WorkbenchError } from '../../../shared/errors';
import { addressIdentity } from '../../../shared/contacts';
import { STAGE_TO_STATUS, stageAfter, type Stage } from '../../../shared/pipeline';
import type { Cache } from '../store/cache';

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
  let updated = 0;
  let addresses = 0;
  cache.tx(() => {
    for (const [opportunityId, emails] of e.carried) {
      if (!cache.opportunities.exists(e.brand_id, opportunityId)) continue;
      const t = cache.triage.get(e.brand_id, opportunityId);
      const stage = (t?.stage ?? 'New') as Stage;
      if (e.preset === 'followups') {
        const next = stageAfter('followed-up', stage);
        cache.triage.set(e.brand_id, opportunityId, { followed_up_at: today, stage: next, status: STAGE_TO_STATUS[next] }, now);
      } else {
        const next = stageAfter('mailed', stage);
        const before = t?.contacted_addresses ?? [];
        const known = new Set(before.map(addressIdentity));
        const used = [...before, ...emails.filter((a) => !known.has(addressIdentity(a)))];
        cache.triage.set(
          e.brand_id,
          opportunityId,
          { contacted_addresses: used, stage: next === 'New' ? null : next, status: STAGE_TO_STATUS[next], snoozed_until: null },
          now,
          { contacted_at: today },
        );
      }
      updated++;
      addresses += emails.length;
    }
    cache.exports.markSent(e.id, now);
  });
  return { ...base, updated, addresses, alreadySent: null };
}
