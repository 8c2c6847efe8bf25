// Every migration, listed statically, in order. Add a file, never edit one.
import * as m001 from './001-initial';
import * as m002 from './002-do-not-contact';
import * as m003 from './003-user-record';

export interface Migration {
  version: number;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [m001, m002, m003];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
