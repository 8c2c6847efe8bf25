// What main does when the core asks: the clipboard, the system's handlers for
// links and folders, the save and open dialogs. Links are checked again here (only
// http(s) and the app's own mailto: leave the app), whatever the core sent.
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
  };
}
