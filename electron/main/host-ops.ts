// What main does when the core asks: the clipboard, the system's handlers for
// links and folders, the save and open dialogs, the window printed to PDF.
// Links are checked again here (only http(s) and the app's own mailto: leave
// the app), whatever the core sent.
import type { HostHandlers } from '../../shared/core-link';
import { checkExternalUrl, checkMailto } from '../../shared/links';

export interface HostSideEffects {
  writeClipboard(text: string): void;
  openExternal(url: string): Promise<void>;
  showItemInFolder(path: string): void;
  /** The native save dialog; null when the user cancels. */
  showSaveDialog(suggestedName: string): Promise<string | null>;
  /** The native open dialog for one existing file; null when the user cancels. */
  showOpenDialog(o: { title: string; filters: { name: string; extensions: string[] }[] }): Promise<string | null>;
  /** The app window printed to PDF with its print styles (webContents.printToPDF). */
  printToPdf(): Promise<Uint8Array>;
}

/** The save dialog's title and file type for a suggested name, by its extension (an export, a workbook, a report). */
export function saveDialogFor(suggestedName: string): { title: string; filters: { name: string; extensions: string[] }[] } {
  const ext = /\.([a-z0-9]+)$/i.exec(suggestedName)?.[1]?.toLowerCase() ?? 'csv';
  const kinds: Record<string, { title: string; name: string }> = {
    csv: { title: 'Export CSV', name: 'CSV' },
    xlsx: { title: 'Export a workbook', name: 'Excel workbook' },
    pdf: { title: 'Save the report as PDF', name: 'PDF' },
    html: { title: 'Save the report as a web page', name: 'Web page' },
  };
  const k = kinds[ext] ?? kinds.csv!;
  return { title: k.title, filters: [{ name: k.name, extensions: [Object.hasOwn(kinds, ext) ? ext : 'csv'] }] };
}

export function hostHandlers(fx: HostSideEffects): HostHandlers {
  return {
    'clipboard:write': ({ text }) => {
      fx.writeClipboard(text);
      return null;
    },
    'shell:open-external': async ({ url }) => {
      const c = url.startsWith('mailto:') ? checkMailto(url) : checkExternalUrl(url);
      if (!c.ok) throw new Error(c.reason);
      await fx.openExternal(c.url);
      return null;
    },
    'shell:show-item-in-folder': ({ path }) => {
      fx.showItemInFolder(path);
      return null;
    },
    'dialog:save-file': ({ suggestedName }) => fx.showSaveDialog(suggestedName),
    'dialog:open-file': ({ title, filters }) => fx.showOpenDialog({ title, filters }),
    'window:print-pdf': () => fx.printToPdf(),
  };
}
