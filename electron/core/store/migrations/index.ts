// Every migration, listed statically, in order. Add a file, never edit one.
import type Database from 'better-sqlite3';
import * as m001 from './001-initial';
import * as m002 from './002-do-not-contact';
import * as m003 from './003-user-record';
import * as m004 from './004-fast-and-small';
import * as m005 from './005-pipeline';
import * as m006 from './006-pitched-covering';
import * as m007 from './007-who-was-written-to';
import * as m008 from './008-one-triage-model';
import * as m009 from './009-citation-facts';
import * as m010 from './010-sorted-to-the-row';
import * as m011 from './011-facets-and-summary';
import * as m012 from './012-records-in-blocks';
import * as m013 from './013-nothing-twice';
import * as m014 from './014-outlets-counted';
import * as m015 from './015-sparse-lists';

export interface Migration {
  version: number;
  sql: string;
  /** Data the SQL cannot carry over by itself (compressing, re-indexing), run after it in the same transaction. */
  up?: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010, m011, m012, m013, m014, m015];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
