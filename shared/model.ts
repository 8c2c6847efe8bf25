// The data the app shows, shared by core (which produces it), main (which
// passes it on) and the renderer (which shows it). Plain data: no methods.
import type { ErrorKind } from './errors';
import type { Stage } from './pipeline';
import type { MailVia } from './mail-links';
import type { ExportFormat, ExportPreset } from './export-presets';
import type { Opportunity } from './api/schemas';
import type { Contact } from './contacts';
import type { Difficulty, OpportunityType, Status } from './domain';
import type { ListedFields } from './opportunity-fields';
import type { ListedTriage, TriageFields } from './triage-fields';
import type { PitchHints } from './pitch-hints';

export type { Status };

/** The list's orders; `relevance` ("Best match") while searching (without a search it is the priority order). */
export const LIST_SORTS = ['priority', 'fit', 'last_seen', 'title', 'domain', 'relevance'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

export interface ListFilter {
  brandId: string;
  type?: OpportunityType;
  /** Trakkr's own status (the service's data: the user's triage is the stage). */
  status?: Status;
  difficulty?: Difficulty;
  /** Substring of the domain, any case. */
  domain?: string;
  /** Also show archived ones: archived by Trakkr, and those the user found Not a fit (the Not a fit stage filter shows these anyway). */
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
  /** true: only opportunities with an address pitched before; false: only those without. */
  alreadyPitched?: boolean;
  /** Only these opportunities (a selection). */
  ids?: string[];
  /** The local outreach stage (New: none set). */
  stage?: Stage;
  /** The pipeline's views: follow-ups due today (with an address left to write to); the snoozed ones. By default snoozed ones are left out until their date. */
  view?: 'due' | 'snoozed';
  sort?: ListSort;
}

/**
 * One row of the list: the stored fields the field table shows in the list
 * (../shared/opportunity-fields.ts; Trakkr's status is `server_status`), the
 * user's triage the triage table shows in rows (triage-fields.ts), a few
 * flags, and the value the list is sorted by.
 */
export type ListItem = Flat<
  ListedFields &
    ListedTriage & {
      removed_on_server: boolean;
      /** Latest date any of its addresses was pitched, in any opportunity of the brand. */
      pitched_at: string | null;
      /** Addresses of it on the do-not-contact list. */
      do_not_contact_count: number;
      /** What the list is sorted by, for this row: the score, date, title or domain, or the search rank (Best match: 1 is the best). */
      sort_value: string | number | null;
    }
>;
type Flat<T> = { [K in keyof T]: T[K] };

/** The user's triage of one opportunity, every field (the table in triage-fields.ts), and when it last changed. */
export type Triage = Flat<TriageFields & { updated_at: string | null }>;

/** One address of an opportunity, as the detail shows it: on the do-not-contact list or not (copy and send leave those out). */
export type DetailContact = Contact & { blocked: boolean };

export interface OpportunityDetail {
  item: ListItem;
  /** The opportunity as Trakkr sent it, every field (the raw JSON; fields the spec does not list too). */
  raw: Opportunity & Record<string, unknown>;
  contacts: DetailContact[];
  triage: Triage;
}

export interface CachedBrand {
  id: string;
  name: string;
  removed_on_server: boolean;
  last_synced_at: string | null;
  /** How many the list shows with no filter (the same count as its total): not archived, not Not a fit, not snoozed, still on Trakkr. */
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

export type SyncPhase = 'brands' | 'opportunities' | 'scores' | 'citations';

export type SyncEvent =
  | { type: 'brands'; brands: { id: string; name: string }[] }
  | { type: 'brand-start'; brandId: string; name: string; resumed: boolean }
  | {
      type: 'progress';
      brandId: string;
      phase: SyncPhase;
      /** Pages and rows so far in this phase (rows already readable: each page is written as it arrives). */
      pages: number;
      items: number;
      /** Rows a second since the phase started (null until a page has come). */
      rate?: number | null;
      /** The rows expected in all when known (the brand's last complete sync), else null; with it the seconds left at this rate. */
      total?: number | null;
      secondsLeft?: number | null;
    }
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
  /** Phases that failed for this brand (opportunities already written stay), each with the kind of failure it was. */
  failures: { phase: SyncPhase; kind: ErrorKind; message: string }[];
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

/** A row (and a cell of it) an export's check names: its row in the file (the header is row 1; null: left out), its address and opportunity. */
export interface ExportNote {
  row: number | null;
  email: string;
  opportunity_id: string;
  /** The column, for a note about one cell. */
  column?: string;
  /** The start of the cell's text, for a note about one cell. */
  text?: string;
  /** The merge fields left in it, as written. */
  tokens?: string[];
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
  /** Addresses (each once) of the rows chosen that are on the do-not-contact list, so left out (counted by the preview). */
  doNotContact: number;
  /** Plain-words warnings (not errors) for the UI and the CLI. */
  warnings: string[];
  /** The preset and the format checked. */
  preset: ExportPreset;
  format: ExportFormat;
  /** Every column the preset offers (a person may choose among them), and the ones written, in order. */
  available: string[];
  columns: string[];
  /** Rows with a merge field not filled (the first few), whatever was chosen for them. */
  unfilledRows: ExportNote[];
  /** Rows hold merge fields not filled and no choice was made (leave them out, fill a default, keep them): needed before a mail export is written. */
  unfilledChoiceNeeded: boolean;
  /** {sender_name} is in the text and no sender name is set: ask for it once. */
  senderNameMissing: boolean;
  /** Rows left out, and why: unfilled merge fields (chosen), mail text that starts like a formula (chosen), no address left to write to. */
  leftOut: { unfilled: number; formula: number; noAddress: number };
  /** Mail cells (names, subject, body) that start like a formula: in a CSV the guard's apostrophe would reach the recipient. The first few, and how many. */
  mailGuarded: number;
  mailGuardedCells: ExportNote[];
  /** A CSV for a program that may run formulas has such mail cells and no choice was made (.xlsx, leave the rows out, the apostrophe): needed before it is written. */
  mailTextChoiceNeeded: boolean;
  /** Other cells the CSV guard gives an apostrophe (the service's text: titles, outlets, links), whatever was chosen for mail text. The first few, and how many. */
  dataGuarded: number;
  dataGuardedCells: ExportNote[];
  /** Cells cut to fit where the file goes (a spreadsheet cell's 32,767 characters, a Mailchimp field's 255 bytes), with a visible marker. */
  cut: number;
  cutCells: ExportNote[];
  /** CSV cells longer than a spreadsheet cell holds: written whole (mail tools read them), but a spreadsheet opening the CSV cuts them. */
  overlong: number;
  overlongCells: ExportNote[];
  /** Links a workbook holds as text, not clickable: longer than Excel's 2,079 characters (named), or past its 65,530 a sheet (counted when written). */
  linksAsText: number;
  linksAsTextCells: ExportNote[];
}

export interface ExportResult {
  files: string[];
  rows: number;
  bytes: number;
  /** maxRows was reached without split: rows after it were not written. */
  truncated: boolean;
  markedExported: number;
  /** The export as the record keeps it: "I sent these" (export:confirm-sent) names it. */
  exportId: string;
  /** How many addresses it carried (what confirming it as sent marks contacted). */
  carried: number;
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
  /** The hints on the filled text, as it would go out (not the template with its merge fields). */
  hints: PitchHints;
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

/** How a pitch to a person and to shared inboxes (a catch-all, a role address such as tips@) goes out. */
export type MixChoice = 'each' | 'bcc' | 'together';

/** A person and shared inboxes in one To: line: said before anything opens, with the ways to send it. */
export interface MixWarning {
  /** The personal addresses. */
  people: string[];
  /** The catch-all and role addresses. */
  shared: string[];
  message: string;
  /** One message each (each filled for its address); the shared inboxes in Bcc; or all in To: anyway. */
  offers: MixChoice[];
}

export interface ComposeResult {
  /** False when nothing opened: a person and shared inboxes were chosen together and no way was picked yet (see `mix`). */
  opened: boolean;
  via: MailVia;
  to: string[];
  /** The addresses in Bcc (the choice `bcc`). */
  bcc: string[];
  /** Messages opened (several with the choice `each`). */
  messages: number;
  /** The subject that went out (filled): marking it contacted keeps it, and the follow-up replies to it. */
  subject: string;
  /** A person and shared inboxes in one To: line, with the ways to send it; null when not mixed (or a way was chosen). */
  mix: MixWarning | null;
  /** The body was too long for a link: it was copied to the clipboard to paste. */
  bodyCopied: boolean;
  /**
   * What the links carried (the first addresses in To and Bcc, and whether every link has the subject and the body);
   * whatever else was copied to the clipboard, as `message` says. Nothing when nothing opened.
   */
  inLink: { to: string[]; bcc: string[]; subject: boolean; body: boolean };
  message: string;
  unfilled: DraftView['unfilled'];
  warnings: ContactWarning[];
}
