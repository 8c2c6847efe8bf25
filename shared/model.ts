// The data the app shows, shared by core (which produces it), main (which
// passes it on) and the renderer (which shows it). Plain data: no methods.
import type { ErrorKind } from './errors';
import type { Stage } from './pipeline';
import type { Opportunity } from './api/schemas';
import type { Contact } from './contacts';
import type { Difficulty, OpportunityType, Status } from './domain';
import type { ListedFields } from './opportunity-fields';

export type { Status };

export const LIST_SORTS = ['priority', 'fit', 'last_seen', 'title', 'domain'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

export interface ListFilter {
  brandId: string;
  type?: OpportunityType;
  /** Effective status: the local one if set, else the server's. */
  status?: Status;
  difficulty?: Difficulty;
  /** Substring of the domain, any case. */
  domain?: string;
  /** Also show archived (server flag or local status Archived). */
  includeArchived?: boolean;
  /** Also show records the server no longer returns. */
  includeRemoved?: boolean;
  /** Only records the server no longer returns. */
  onlyRemoved?: boolean;
  hasContacts?: boolean;
  /** 'only': has a catch-all address; 'exclude': has none. */
  catchAll?: 'only' | 'exclude';
  starred?: boolean;
  /** Full-text search (title, domain, topics, pitch, gap analysis, angle, author, contacts). */
  search?: string;
  /** true: only opportunities with an address contacted or exported before; false: only those without. */
  alreadyPitched?: boolean;
  /** Only these opportunities (a selection). */
  ids?: string[];
  /** The local outreach stage (New: none set). */
  stage?: Stage;
  /** The pipeline's views: follow-ups due today; the snoozed ones. By default snoozed ones are left out until their date. */
  view?: 'due' | 'snoozed';
  sort?: ListSort;
}

/**
 * One row of the list: the stored fields the field table shows in the list
 * (../shared/opportunity-fields.ts), then the user's triage and two flags.
 */
export type ListItem = Flat<
  ListedFields & {
    /** Effective status: the local one if set, else the server's (`server_status`). */
    status: string | null;
    removed_on_server: boolean;
    starred: boolean;
    note: string;
    contacted_at: string | null;
    exported_at: string | null;
    /** Latest date any of its addresses was contacted or exported, in any opportunity of the brand. */
    pitched_at: string | null;
    /** Addresses of it on the do-not-contact list. */
    do_not_contact_count: number;
    /** The local outreach stage; null: New. */
    stage: Stage | null;
    /** Snoozed until this date (YYYY-MM-DD); past it, it is back with a marker. */
    snoozed_until: string | null;
    followed_up_at: string | null;
  }
>;
type Flat<T> = { [K in keyof T]: T[K] };

export interface Triage {
  status: Status | null;
  note: string;
  starred: boolean;
  contacted_at: string | null;
  exported_at: string | null;
  updated_at: string | null;
}

export interface OpportunityDetail {
  item: ListItem;
  record: Opportunity & Record<string, unknown>;
  contacts: Contact[];
  triage: Triage;
}

export interface CachedBrand {
  id: string;
  name: string;
  removed_on_server: boolean;
  last_synced_at: string | null;
  opportunities: number;
}

export interface DoNotContactEntry {
  kind: 'address' | 'domain';
  value: string;
  note: string;
  added_at: string;
}

export interface ScoreRow {
  date: string;
  model: string;
  prompt: string;
  visibility: number | null;
  presence: number | null;
}

export interface TriagePatch {
  /** null clears the local status (the server's shows again). */
  status?: Status | null;
  note?: string;
  starred?: boolean;
  contacted_at?: string | null;
  exported_at?: string | null;
  /** The local outreach stage (shared/pipeline.ts); null: New. */
  stage?: Stage | null;
  /** Why it is not a fit (with stage Not a fit). */
  stage_reason?: string | null;
  /** Out of the default list until this date (YYYY-MM-DD); null: not snoozed. */
  snoozed_until?: string | null;
  followed_up_at?: string | null;
  /** The addresses the pitch was sent to. */
  contacted_addresses?: string[] | null;
}

export type SyncPhase = 'brands' | 'opportunities' | 'scores' | 'citations';

export type SyncEvent =
  | { type: 'brands'; brands: { id: string; name: string }[] }
  | { type: 'brand-start'; brandId: string; name: string; resumed: boolean }
  | { type: 'progress'; brandId: string; phase: SyncPhase; pages: number; items: number }
  | { type: 'wait'; brandId: string | null; reason: WaitInfo['reason']; seconds: number; capped: boolean; message: string }
  | { type: 'warning'; brandId: string; message: string }
  /** Another process is syncing this brand; this sync waits for it. */
  | { type: 'blocked'; brandId: string; message: string }
  | { type: 'brand-done'; summary: BrandSummary };

export interface BrandSummary {
  brandId: string;
  name: string;
  added: number;
  changed: number;
  removed: number;
  warnings: number;
  pages: number;
  items: number;
  resumed: boolean;
  /** Phases that failed for this brand (opportunities already written stay). */
  failures: { phase: SyncPhase; message: string }[];
  /** Why this brand was not synced (another process was syncing it), in plain words. */
  skipped?: string;
  /** Pitched opportunities this sync found new evidence for (a citation at the outlet after the pitch). */
  cited?: number;
  /** Of those, how many it marked Won (only with Settings' "mark Won by itself" on). */
  markedWon?: number;
}

export interface SyncSummary {
  brands: BrandSummary[];
  durationMs: number;
  cancelled: boolean;
  /** An error that stopped the whole sync (a rejected key, for example). */
  error: { kind: ErrorKind; message: string } | null;
}

export interface ExportCheck {
  rows: number;
  emptyEmail: number;
  emptySubject: number;
  emptyBody: number;
  /** Rows whose pitch still holds a merge field or placeholder that could not be filled ({first_name}, [Name]). */
  placeholders: number;
  /** The distinct unfilled tokens, as written (the first few), so the warning names them. */
  unfilled: string[];
  catchAll: number;
  /** Plain-words warnings (not errors) for the UI and the CLI. */
  warnings: string[];
}

export interface ExportResult {
  files: string[];
  rows: number;
  bytes: number;
  /** maxRows was reached without split: rows after it were not written. */
  truncated: boolean;
  markedExported: number;
  check: ExportCheck;
  warnings: string[];
}

export interface WaitInfo {
  reason: 'rate-limit' | 'retry';
  /** Seconds the client will wait before trying again. */
  seconds: number;
  attempt: number;
  /** True when the service asked for longer than the client's maximum wait. */
  capped: boolean;
  status?: number;
  message: string;
}

/** A draft as the pane shows it: the saved text (or the service's pitch), filled for the chosen address, and what is missing. */
export interface DraftView {
  kind: 'pitch' | 'followup';
  /** The user's saved draft, or null (then `text` is the service's pitch, or an empty follow-up). */
  draft: { subject: string; body: string; updated_at: string } | null;
  /** The text the editor shows. */
  text: { subject: string; body: string };
  /** The service's pitch now. */
  service: { subject: string; body: string };
  /** The service's pitch the draft started from (null without a draft). */
  base: { subject: string; body: string } | null;
  /** The service changed its pitch since the draft started from it: the pane says so and shows the difference. */
  serviceChanged: boolean;
  /** The text with every merge field it could fill, filled. */
  filled: { subject: string; body: string };
  /** Merge fields and placeholders that could not be filled, listed before anything is sent or exported. */
  unfilled: { token: string; field: string | null; part: 'subject' | 'body' }[];
  /** Who it may go to: every valid address; catch-alls never pre-selected; one on the do-not-contact list (`blocked`) never selected, and refused when sending. */
  recipients: { email: string; catchAll: boolean; role: boolean; selected: boolean; blocked: boolean }[];
}

/** An earlier contact of the same person or outlet within the contact window. */
export interface ContactWarning {
  /** The address (same person) or the domain (same outlet). */
  what: string;
  kind: 'person' | 'outlet';
  opportunity_id: string;
  title: string;
  contacted_at: string;
  /** Plain words: "ana@outlet.com was contacted on 2026-11-02 for «Best espresso»". */
  message: string;
}

export interface ComposeResult {
  opened: boolean;
  via: 'default' | 'gmail' | 'outlook';
  to: string[];
  /** The body was too long for a link: it was copied to the clipboard to paste. */
  bodyCopied: boolean;
  message: string;
  unfilled: DraftView['unfilled'];
  warnings: ContactWarning[];
}
