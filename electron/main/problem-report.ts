// Help when something goes wrong, with nothing leaving the laptop unless the person sends it: crash
// dumps are kept locally (crashReporter with uploadToServer off), and Help › "Report a problem…"
// gathers the versions, the last logs and the crash dumps into one .zip the person saves where they
// choose and can attach to an e-mail. The API key is redacted from everything in it: from the logs
// line by line with the log's own redaction, and from the dumps' bytes in place (same length, so a
// dump stays readable) should a key have been in memory when a process crashed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { API_KEY_ANYWHERE } from '../../shared/rules';
import { redactForLog } from './log';

/** crashReporter.start's options: dumps are written on this computer and never uploaded. */
export const CRASH_REPORTER_OPTIONS = Object.freeze({ uploadToServer: false, compress: true, ignoreSystemCrashHandler: false });

export interface ReportSources {
  appName: string;
  appVersion: string;
  /** process.versions (electron, chrome, node, v8, …). */
  versions: Readonly<Record<string, string | undefined>>;
  os: { platform: string; release: string; arch: string };
  /** The user-data folder's logs/ (main's workbench*.log and the core's core*.log). */
  logsDir: string;
  /** app.getPath('crashDumps'). */
  crashDumpsDir: string;
  now: Date;
}

export interface ReportEntry {
  name: string;
  data: Buffer;
}

/** Every file under a folder whose name passes `keep`, as paths relative to it (forward slashes). */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** The redacted stand-in for a key of `length` characters: as many characters. */
const redactedKey = (length: number) => `sk_live_[redacted]${'-'.repeat(length - 18)}`;

/** How many letters or digits follow sk_live_ in a key (shared/rules.ts's pattern ends with {n}). */
const KEY_BODY_LENGTH = Number(/\{(\d+)\}$/.exec(API_KEY_ANYWHERE.source)?.[1] ?? 32);

/**
 * The key's pattern as UTF-16LE bytes read as latin1, each character followed by a zero byte: how
 * Blink and V8 hold two-byte strings (the renderer, where the key is typed) and Windows its own.
 */
const API_KEY_UTF16LE = new RegExp(`${[...'sk_live_'].map((c) => `${c}\\x00`).join('')}(?:[A-Za-z0-9]\\x00){${KEY_BODY_LENGTH}}`, 'g');

/** Anything shaped like an API key in a dump's bytes (one byte or two a character), overwritten in place with the same number of bytes. */
export function redactBytes(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const redacted = text
    .replace(new RegExp(API_KEY_ANYWHERE.source, 'g'), (key) => redactedKey(key.length))
    .replace(API_KEY_UTF16LE, (key) => Buffer.from(redactedKey(key.length / 2), 'utf16le').toString('latin1'));
  return redacted === text ? data : Buffer.from(redacted, 'latin1');
}

/** What goes in a report: about.txt (versions, system, time), the logs (redacted), the crash dumps (redacted). */
export function gatherReport(src: ReportSources): ReportEntry[] {
  const v = src.versions;
  const about = [
    `${src.appName} ${src.appVersion}`,
    `Electron ${v.electron ?? '-'}, Chromium ${v.chrome ?? '-'}, Node ${v.node ?? '-'}, V8 ${v.v8 ?? '-'}`,
    `System: ${src.os.platform} ${src.os.release} (${src.os.arch})`,
    `Report made: ${src.now.toISOString()}`,
    '',
    'The logs below have the API key taken out. Crash dumps (if any) are what the system recorded when a part of the app stopped.',
  ].join('\n');
  const entries: ReportEntry[] = [{ name: 'about.txt', data: Buffer.from(`${about}\n`) }];
  for (const name of filesUnder(src.logsDir, (n) => n.endsWith('.log'))) {
    const text = readFileSync(join(src.logsDir, name), 'utf8');
    entries.push({ name: `logs/${name}`, data: Buffer.from(text.split('\n').map(redactForLog).join('\n')) });
  }
  for (const name of filesUnder(src.crashDumpsDir, (n) => n.endsWith('.dmp'))) {
    entries.push({ name: `crash-dumps/${name}`, data: redactBytes(readFileSync(join(src.crashDumpsDir, name))) });
  }
  return entries;
}

/** How many crash dumps there are (for the dialog's words). */
export function countCrashDumps(crashDumpsDir: string): number {
  return filesUnder(crashDumpsDir, (n) => n.endsWith('.dmp')).filter((f) => statSync(join(crashDumpsDir, f)).size > 0).length;
}

/** DOS date and time of a Date, as a zip entry stores them. */
function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** A .zip file (deflated entries, UTF-8 names) of `entries`, readable by every unzip tool. */
export function zipEntries(entries: readonly ReportEntry[], when: Date): Buffer {
  const { time, date } = dosTime(when);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const packed = deflateRawSync(e.data);
    const crc = crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The file name the save dialog suggests: no spaces, the date, so several reports sort. */
export function reportFileName(now: Date): string {
  return `outreach-workbench-report-${now.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.zip`;
}
