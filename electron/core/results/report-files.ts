// The report to send, written where the user chose: the PDF main printed from
// the window, or the page as the window shows it, made a file that runs
// nothing (a policy that allows styles only, and the tags that could load or
// run anything taken out). Each written through the app's one atomic writer
// (files/atomic-write.ts), so a half-written report never has the user's name.
import { writeFileAtomic } from '../files/atomic-write';
import { WorkbenchError } from '../../../shared/errors';

/** Write a file whole or not at all (failures in the app's words, naming the file); its size in bytes. */
export function writeWhole(path: string, data: string | Uint8Array, what: string): number {
  writeFileAtomic(path, data, { what });
  return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The tags a report file never holds (they would load or run something): each
 * made text. The window's markup escapes `<` in text, so such a tag can only
 * be markup, or the text of an attribute, where `&lt;` reads the same.
 */
const ACTIVE = /<(?=\/?\s*(script|iframe|frame|frameset|object|embed|applet|meta|base|link|form|style|template|portal)\b)/gi;

/** A report page as a file of its own: the window's markup and styles, with a policy that allows styles and nothing else. */
export function reportDocument(o: { title: string; html: string; css: string }): string {
  // No `<` in the styles (CSS needs none outside strings, where the escape reads the same): nothing can close the <style>.
  const css = o.css.replace(/</g, '\\3C ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(o.title)}</title>`,
    `<style>\n${css}\n</style>`,
    '</head>',
    '<body class="report-file">',
    o.html.replace(ACTIVE, '&lt;'),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The PDF main printed: checked to be one before it takes the user's name. */
export function writePdf(path: string, bytes: Uint8Array): number {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(5, bytes.byteLength)).toString('latin1');
  if (head !== '%PDF-') throw new WorkbenchError('internal', 'The window could not be printed to PDF (what came back is not a PDF).');
  return writeWhole(path, bytes, 'The report');
}
