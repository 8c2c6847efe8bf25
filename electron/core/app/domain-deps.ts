// What the domains behind the contract that read and write the cache (opportunities,
// triage, drafts, results, insights) are given: the open cache, the settings, the user's calendar day, the platform
// (main's side effects), and a way to say the user's record changed (a backup
// follows). Each domain file declares its handlers over these, side by side
// with what they do.
import type { Settings } from '../../../shared/contract';
import type { Cache } from '../store/cache';
import type { Platform } from './platform';

export interface DomainDeps {
  cache(): Cache;
  settings(): Settings;
  /** Today on the user's calendar (YYYY-MM-DD): the core's clock, a test's fixed day. */
  today(): string;
  platform: Platform;
  /** The user's record changed: a backup follows (at most once an hour). */
  changed(): void;
  /** The window has been given a page of the list: a launch's sync may start now (lifecycle.ts). */
  pageServed?(): void;
}
