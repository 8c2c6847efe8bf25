// One export from the export dialog: the preview of what the options would
// write (the latest options' answer wins), then the file chosen in main's
// dialog, the job's progress, cancel, and its result; then, once the person
// has sent it from their mail tool, "I sent these" (its addresses become
// contacted). Owned by the dialog; dispose() lets go of the job's events when
// the dialog goes.
import type { EventPayloads, MethodArgs } from '../../../shared/contract';
import { isCancelled } from '../../../shared/errors';
import { sentAs as sentAsFor } from '../../../shared/export-presets';
import type { ExportCheck, ExportResult } from '../../../shared/model';
import { call, on } from '../lib/api.svelte';
import { count, errorText } from '../lib/format';
import { Latest } from '../lib/latest';
import type { Frame } from './frame';

export type ExportOptions = MethodArgs<'export:preview'>[0];

/** How long the dialog waits after a change (a key typed in the default first name) before it counts again. */
export const PREVIEW_AFTER_MS = 250;
type Done = EventPayloads['export:done'];

/** What "I sent these" records for an export that was made (as the core's confirm-sent does): a follow-ups export, followed up. */
export const sentAs = (made: ExportResult): string => sentAsFor(made.check.preset).words;

export class ExportJob {
  #check = $state.raw<ExportCheck | null>(null);
  #busy = $state(false);
  #progress = $state(0);
  #result = $state.raw<ExportResult | null>(null);
  #resultJob = $state<string | null>(null);
  #error = $state<string | null>(null);
  #cancelled = $state(false);
  /** The export's addresses were marked contacted ("I sent these"): what the core answered. */
  #sent = $state.raw<{ updated: number; addresses: number; alreadySent: string | null } | null>(null);
  /** Cancel was asked before main named the job: sent as soon as it does. */
  #cancelAsked = false;
  #previews = new Latest();
  /** A preview asked for while the person is still changing options: counted once they pause. */
  #pending: ReturnType<typeof setTimeout> | null = null;
  #asked = false;
  /** The running job's id, once main has answered; until then its events wait in #early. */
  #jobId: string | null = null;
  #early = new Map<string, Done>();
  #unsubscribe: (() => void)[] = [];
  readonly #app: Frame;
  readonly #reload: () => void;

  /** `reload`: read the list again, keeping its cursor (the export marked rows exported). */
  constructor(app: Frame, reload: () => void) {
    this.#app = app;
    this.#reload = reload;
  }

  get check(): ExportCheck | null {
    return this.#check;
  }
  get busy(): boolean {
    return this.#busy;
  }
  /** Rows written so far. */
  get progress(): number {
    return this.#progress;
  }
  get result(): ExportResult | null {
    return this.#result;
  }
  get error(): string | null {
    return this.#error;
  }
  /** The last export was cancelled (nothing was written). */
  get cancelled(): boolean {
    return this.#cancelled;
  }
  get sent(): { updated: number; addresses: number; alreadySent: string | null } | null {
    return this.#sent;
  }

  /** "I sent these": the written export's addresses become contacted today (a follow-ups export: followed up). Never rejects. */
  async confirmSent(): Promise<void> {
    const made = this.#result;
    if (!made?.exportId || this.#sent) return;
    try {
      this.#sent = await call('export:confirm-sent', { exportId: made.exportId });
      this.#app.toast(
        this.#sent.alreadySent
          ? `Already marked as sent on ${this.#sent.alreadySent}.`
          : `Marked ${count(this.#sent.addresses, 'address', 'addresses')} of ${count(this.#sent.updated, 'opportunity', 'opportunities')} as ${sentAs(made)} today.`,
      );
      this.#reload();
    } catch (e) {
      this.#error = errorText(e);
    }
  }

  /**
   * The dialog's options changed: count them once the person pauses
   * (PREVIEW_AFTER_MS), so typing a default does not start a count per key;
   * the first count starts at once. The engine stops a count a newer one
   * replaces. Never rejects.
   */
  ask(options: ExportOptions): void {
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#pending = null;
    if (!this.#asked) {
      this.#asked = true;
      void this.preview(options);
      return;
    }
    this.#pending = setTimeout(() => {
      this.#pending = null;
      void this.preview(options);
    }, PREVIEW_AFTER_MS);
  }

  /** Count what these options would write. Never rejects. */
  async preview(options: ExportOptions): Promise<void> {
    const fresh = this.#previews.begin();
    this.#error = null;
    try {
      const c = await call('export:preview', options);
      if (fresh()) this.#check = c;
    } catch (e) {
      // A count stopped by a newer one is not an error the person needs to see.
      if (fresh() && !isCancelled(e)) this.#error = errorText(e);
    }
  }

  /** Ask main for a file, then write it. Never rejects: a failure is `error`. */
  async save(options: ExportOptions, suggestedName: string): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    this.#error = null;
    this.#result = null;
    this.#sent = null;
    this.#cancelled = false;
    this.#cancelAsked = false;
    try {
      const { file } = await call('export:choose-file', { suggestedName });
      if (!file) {
        this.#busy = false;
        return;
      }
      this.#follow();
      const { jobId } = await call('export:start', { options, file: file.handle });
      this.#jobId = jobId;
      const done = this.#early.get(jobId);
      this.#early.clear();
      if (done) this.#finish(done);
      else if (this.#cancelAsked) await this.cancel();
    } catch (e) {
      this.#stopFollowing();
      this.#busy = false;
      this.#error = errorText(e);
    }
  }

  /** Stop the running export: its end (export:done) says cancelled and no file is left. Never rejects. */
  async cancel(): Promise<void> {
    if (!this.#busy) return;
    this.#cancelAsked = true;
    const jobId = this.#jobId;
    if (jobId === null) return; // save() sends it once main has named the job
    try {
      await call('export:cancel', { jobId });
    } catch (e) {
      this.#error = errorText(e);
    }
  }

  #follow(): void {
    this.#stopFollowing();
    this.#jobId = null;
    this.#progress = 0;
    this.#unsubscribe.push(
      on('export:progress', (p) => {
        if (p.jobId === this.#jobId) this.#progress = p.rows;
      }),
      on('export:done', (d) => {
        if (this.#jobId === null) this.#early.set(d.jobId, d);
        else if (d.jobId === this.#jobId) this.#finish(d);
      }),
    );
  }

  #stopFollowing(): void {
    for (const off of this.#unsubscribe.splice(0)) off();
  }

  #finish(d: Done): void {
    this.#stopFollowing();
    this.#busy = false;
    if (d.error?.kind === 'cancelled') {
      this.#cancelled = true;
      return;
    }
    if (d.error) {
      this.#error = d.error.message;
      return;
    }
    this.#result = d.result;
    this.#resultJob = d.jobId;
    this.#app.toast(`Exported ${count(d.result?.rows ?? 0, 'row')}.`);
    this.#reload();
  }

  /** Never rejects. */
  async showInFolder(): Promise<void> {
    const jobId = this.#resultJob;
    if (!jobId) return;
    try {
      await call('export:show-in-folder', { jobId });
    } catch (e) {
      this.#error = errorText(e);
    }
  }

  dispose(): void {
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#pending = null;
    this.#stopFollowing();
    this.#early.clear();
    this.#previews.cancel();
  }
}
