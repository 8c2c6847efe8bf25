// The export presets, one per destination: what each is for, the import rule
// of the program it goes to, and what that rule asks of the file (format,
// row per address or per opportunity, line breaks, text length, whether the
// program ever evaluates formulas). The columns themselves are the core's
// (electron/core/export/presets.ts); this table is what the dialog, the CLI's
// --help and the README say, and what the export obeys. Pure data.
//
// Where a rule comes from: Mailchimp's is its help page "Format guidelines for
// your import file" (https://mailchimp.com/help/format-guidelines-for-your-import-file/);
// Word's is Microsoft's knowledge-base article Q212322 ("How to design and set up
// mail merge data": fields separated by commas or tabs, records by paragraph
// marks). Instantly's field names are its lead object's (API reference, "Lead":
// https://developer.instantly.ai/api-reference/lead: email, first_name, last_name,
// company_name, personalization, website, custom_variables); lemlist's are its
// lead object's (https://developer.lemlist.com/api-reference/objects-definitions/lead:
// email, firstName, lastName, companyName, icebreaker). The Google Sheets add-ons'
// {{Column}} syntax is from the survey and add-on help pages of the same
// kind (e.g. https://mail.anymerge.com/help/how-to-create-merge-draft); GMass's,
// YAMM's and Mailmeteor's own pages could not be read from here. Each is said
// beside its preset.

export const EXPORT_PRESETS = ['contacts', 'opportunities', 'followups', 'instantly', 'lemlist', 'mailchimp', 'sheets-merge', 'word-merge'] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What one row of a preset is: an address (one per person written to), an opportunity, or a follow-up to one address. */
export type PresetRows = 'address' | 'opportunity' | 'followup';

export interface PresetInfo {
  /** Its name in the dialog and --help. */
  label: string;
  /** What it is for, in a line. */
  purpose: string;
  /** The destination's import rule this preset follows, in plain words. */
  rule: string;
  rows: PresetRows;
  /** The formats the destination takes; the first is the default. */
  formats: readonly ExportFormat[];
  /** The file goes to a mail: rows with merge fields not filled need a choice before writing. */
  forMail: boolean;
  /** The destination imports text as text and never evaluates a formula: mail text may be written as written on request. */
  neverEvaluates: boolean;
  /** A CSV for it puts each record on one line: line breaks inside a cell become spaces. */
  oneLinePerRecord?: boolean;
  /** A CSV for it starts with a UTF-8 byte-order mark unless the person says otherwise (the program reads the encoding from it). */
  bomByDefault?: boolean;
  /** Its text fields hold at most this many bytes of UTF-8; longer text is cut with "…" and said. */
  maxTextBytes?: number;
  /** It reads {{Column}} as its own merge field: a token kept on purpose would be filled from a column (or left blank). */
  readsDoubleBraces?: boolean;
}

export const PRESETS: Record<ExportPreset, PresetInfo> = {
  contacts: {
    label: 'Contacts (any mail tool)',
    purpose: 'One row per address, every field a mail merge might use; map the columns in your tool.',
    rule: 'RFC 4180 CSV, UTF-8, a header row; or an .xlsx workbook.',
    rows: 'address',
    formats: ['csv', 'xlsx'],
    forMail: true,
    neverEvaluates: false,
  },
  opportunities: {
    label: 'Opportunities (review in a spreadsheet)',
    purpose: 'One row per opportunity with every field, its addresses and your triage: for reading, not for sending.',
    rule: 'RFC 4180 CSV, UTF-8, a header row; or an .xlsx workbook.',
    rows: 'opportunity',
    formats: ['csv', 'xlsx'],
    forMail: false,
    neverEvaluates: false,
  },
  followups: {
    label: 'Follow-ups due',
    purpose: 'What the Due view shows: one row per address the pitch went to, with the follow-up filled for that person.',
    rule: 'RFC 4180 CSV, UTF-8, a header row; or an .xlsx workbook.',
    rows: 'followup',
    formats: ['csv', 'xlsx'],
    forMail: true,
    neverEvaluates: false,
  },
  // Instantly: lead lists are uploaded as CSV; its lead fields are email, first_name, last_name, company_name,
  // personalization and website (the lead's company site, so the article goes in article_url), and any other column
  // is a custom variable ({{subject}}). Its lead object: https://developer.instantly.ai/api-reference/lead.
  instantly: {
    label: 'Instantly',
    purpose: 'A lead list for Instantly: the pitch body as {{personalization}}, the subject as the custom variable {{subject}}.',
    rule: 'CSV upload; columns email, first_name, last_name, company_name, personalization; any other column becomes a custom variable.',
    rows: 'address',
    formats: ['csv'],
    forMail: true,
    neverEvaluates: true,
  },
  // lemlist: leads are imported from CSV; its variables are email, firstName, lastName, companyName and icebreaker,
  // and any other column becomes a custom variable. Its lead object: https://developer.lemlist.com/api-reference/objects-definitions/lead.
  lemlist: {
    label: 'lemlist',
    purpose: 'A lead list for lemlist: the pitch body as {{icebreaker}}, the subject as the custom variable {{subject}}.',
    rule: 'CSV import; columns email, firstName, lastName, companyName, icebreaker; any other column becomes a custom variable.',
    rows: 'address',
    formats: ['csv'],
    forMail: true,
    neverEvaluates: true,
  },
  // Mailchimp: "Format guidelines for your import file": an Email Address column, one address per contact, text
  // fields limited to 255 bytes (clipped beyond), CSV or TXT. A pitch body does not fit a merge field, so it is not a column.
  mailchimp: {
    label: 'Mailchimp',
    purpose: 'An audience import for Mailchimp: Email Address, First Name, Last Name and short merge fields (no body: a text field holds 255 bytes).',
    rule: 'CSV import; an "Email Address" column, one address per contact; text fields hold 255 bytes and are clipped beyond.',
    rows: 'address',
    formats: ['csv'],
    forMail: true,
    neverEvaluates: true,
    maxTextBytes: 255,
  },
  // GMass, YAMM (Yet Another Mail Merge), Mailmeteor: the sheet's first row names the columns and a Gmail draft
  // uses them as {{Column}}. Import the .xlsx into Google Sheets: its text cells stay text (a CSV import may turn
  // text into numbers, dates or formulas). From the survey and add-on help of the same kind (see the top).
  'sheets-merge': {
    label: 'Google Sheets mail merge (GMass, YAMM, Mailmeteor)',
    purpose: 'A sheet for a Gmail mail-merge add-on: write {{First Name}}, {{Subject}}, {{Body}} in your draft.',
    rule: 'First row: column names, used as {{Column Name}} in the Gmail draft; one row per recipient, an Email column.',
    rows: 'address',
    formats: ['xlsx', 'csv'],
    forMail: true,
    neverEvaluates: false,
    readsDoubleBraces: true,
  },
  // Word (and Outlook through it) mail merge: Microsoft KB Q212322: a delimited text file has fields separated by
  // commas or tabs and records separated by paragraph marks, so a line break inside a cell splits a record; an
  // .xlsx workbook is the safe source. Field names without spaces (Word replaces them).
  'word-merge': {
    label: 'Word/Outlook mail merge',
    purpose: 'A data source for a Word or Outlook mail merge: «FirstName», «Subject», «Body».',
    rule: 'An .xlsx workbook, a header row of field names; as delimited text each record is one paragraph, so line breaks in a cell are put on one line.',
    rows: 'address',
    formats: ['xlsx', 'csv'],
    forMail: true,
    neverEvaluates: false,
    oneLinePerRecord: true,
    // Word guesses a text file's encoding unless it starts with a byte-order mark: with one it reads UTF-8 as UTF-8.
    bomByDefault: true,
  },
};

/**
 * What "I sent these" records for an export made with `preset`: a follow-ups export, followed up; any other (or a
 * preset this version does not know, from an old export log), contacted. One rule for the core's record
 * (confirm-sent), the CLI's `export sent` line and the window's button and toast.
 */
export const sentAs = (preset: string): { kind: 'followed-up' | 'contacted'; words: 'followed up' | 'contacted' } =>
  preset === 'followups' ? { kind: 'followed-up', words: 'followed up' } : { kind: 'contacted', words: 'contacted' };

/** What to do with rows whose mail text still holds a merge field that could not be filled (mail presets only). */
export const UNFILLED_CHOICES = ['leave-out', 'default', 'keep'] as const;
export type UnfilledChoice = (typeof UNFILLED_CHOICES)[number];

/** What to do, in a CSV, with mail text that starts like a formula (= + - @ …). */
export const MAIL_TEXT_CHOICES = ['guard', 'leave-out', 'as-written'] as const;
export type MailTextChoice = (typeof MAIL_TEXT_CHOICES)[number];

/**
 * The choice for mail text that starts like a formula when the person made
 * none: as written for a tool that never runs formulas (the guard's apostrophe
 * would reach the recipient); otherwise none, and a CSV with such text is not
 * written until the person chooses (an .xlsx needs no choice).
 */
export const mailTextChoice = (preset: PresetInfo, chosen?: MailTextChoice): MailTextChoice | undefined =>
  chosen ?? (preset.neverEvaluates ? 'as-written' : undefined);

/** The defaults "fill a default" uses when the person gives none: "Hi {first_name}" becomes "Hi there". */
export const DEFAULT_FILLS: Readonly<Record<string, string>> = { first_name: 'there' };
