// What the app service needs from its host (Electron in the app, a small
// HTTP server in the UI test host): the side effects that are not plain Node.
import type { EventName, EventPayloads } from '../../../shared/contract';

export interface Platform {
  writeClipboard(text: string): void;
  /** Open an already-checked http(s) or mailto: URL in the system's handler. */
  openExternal(url: string): Promise<void>;
  /** The native save dialog; null when the user cancels. */
  chooseSaveFile(suggestedName: string): Promise<string | null>;
  /** The native open dialog; null when the user cancels. */
  chooseOpenFile(o: { title: string; filters: { name: string; extensions: string[] }[] }): Promise<string | null>;
  showItemInFolder(path: string): void;
  /** The window printed to PDF with its print styles (main's webContents.printToPDF). */
  printToPdf(): Promise<Uint8Array>;
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
}
