// Readers the project does not write with, for the files it hands to other
// programs: Python's csv module and openpyxl (Debian's python3-openpyxl,
// installed by build/setup.sh), Python's urllib.parse for compose links, and
// LibreOffice headless (`soffice`: build/setup.sh installs libreoffice-calc-nogui;
// its tests are skipped on a machine without it). Each
// runs in its own process and answers JSON.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Python that has openpyxl: Debian's /usr/bin/python3 first (a pyenv shim on PATH may not have it). */
export const PYTHON = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import openpyxl'], { stdio: 'ignore' }).status === 0) ?? 'python3';

const py = (script: string, ...args: string[]) =>
  JSON.parse(execFileSync(PYTHON, ['-c', script, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as unknown;
/** The same, with `input` on standard input (more than an argument may hold). */
const pyIn = (script: string, input: string) =>
  JSON.parse(execFileSync(PYTHON, ['-c', script], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as unknown;

/** A CSV file's records as Python's csv module reads them (header row included), with the delimiter given. */
export function pythonCsv(path: string, delimiter = ','): string[][] {
  return py(
    'import csv,json,sys\nwith open(sys.argv[1], newline="", encoding="utf-8-sig") as f: print(json.dumps(list(csv.reader(f, delimiter=sys.argv[2]))))',
    path,
    delimiter,
  ) as string[][];
}

export interface XlsxCell {
  /** The value as openpyxl gives it: text, a number, or a date as ISO text ('d' cells). */
  v: string | number | boolean | null;
  /** openpyxl's data type: s (text), n (number), d (date), b, f (a formula), e (an error). */
  t: string;
  fmt: string;
  link: string | null;
  bold: boolean;
}

export interface XlsxRead {
  sheet: string;
  freeze: string | null;
  rows: XlsxCell[][];
  /** Cells with a formula (openpyxl's type f): must be none. */
  formulas: number;
}

/** A workbook's first sheet as openpyxl reads it. */
export function openpyxlRead(path: string): XlsxRead {
  return py(
    `import json,sys,datetime,openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb.worksheets[0]
rows = []
formulas = 0
for r in ws.iter_rows():
  out = []
  for c in r:
    v = c.value
    if c.data_type == 'f': formulas += 1
    if isinstance(v, (datetime.datetime, datetime.date)): v = v.isoformat()
    out.append({'v': v, 't': c.data_type, 'fmt': c.number_format, 'link': c.hyperlink.target if c.hyperlink else None, 'bold': bool(c.font and c.font.b)})
  rows.append(out)
print(json.dumps({'sheet': ws.title, 'freeze': ws.freeze_panes, 'rows': rows, 'formulas': formulas}))`,
    path,
  ) as XlsxRead;
}

/** The raw XML of one part of an .xlsx (a zip), read with Python's zipfile. */
export function xlsxPart(path: string, part: string): string {
  return py('import json,sys,zipfile\nprint(json.dumps(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode("utf-8")))', path, part) as string;
}

/** A compose link parsed back with Python's urllib.parse: the scheme, the path (mailto's addresses) and each query parameter decoded. */
export function pythonParseLinks(urls: string[]): { scheme: string; netloc: string; path: string; query: Record<string, string[]> }[] {
  return pyIn(
    `import json,sys,urllib.parse
out = []
for u in json.loads(sys.stdin.read()):
  p = urllib.parse.urlsplit(u)
  out.append({'scheme': p.scheme, 'netloc': p.netloc, 'path': urllib.parse.unquote(p.path, errors='strict'), 'query': urllib.parse.parse_qs(p.query, keep_blank_values=True, errors='strict')})
print(json.dumps(out))`,
    JSON.stringify(urls),
  ) as { scheme: string; netloc: string; path: string; query: Record<string, string[]> }[];
}

/** LibreOffice headless, when installed (the optional reader). */
export const SOFFICE = ['soffice', 'libreoffice'].find((p) => spawnSync(p, ['--version'], { stdio: 'ignore' }).status === 0) ?? null;

/**
 * Convert a file with LibreOffice headless (`filter`: "xlsx", or a CSV filter
 * with its options); CSV input is read with formulas evaluated, as a person
 * opening it would. Returns the converted file's path (in a fresh folder).
 */
export function sofficeConvert(path: string, to: string, infilter?: string): string {
  if (!SOFFICE) throw new Error('LibreOffice is not installed');
  const out = mkdtempSync(join(tmpdir(), 'soffice-out-'));
  const profile = mkdtempSync(join(tmpdir(), 'soffice-profile-'));
  try {
    execFileSync(
      SOFFICE,
      [`-env:UserInstallation=file://${profile}`, '--headless', ...(infilter ? [`--infilter=${infilter}`] : []), '--convert-to', to, '--outdir', out, path],
      { stdio: 'ignore', timeout: 120_000 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  const files = readdirSync(out);
  if (files.length !== 1 || !existsSync(join(out, files[0]!))) throw new Error(`LibreOffice wrote ${files.length} files converting ${path}`);
  return join(out, files[0]!);
}
