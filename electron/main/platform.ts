// The Electron side effects core's app service asks for.
import { clipboard, dialog, shell, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { eventChannelOf } from '../../shared/contract-names';
import type { Platform } from '../core/app/platform';

export function electronPlatform(getWindow: () => BrowserWindow | null, documentsDir: string): Platform {
  return {
    writeClipboard: (text) => clipboard.writeText(text),
    openExternal: (url) => shell.openExternal(url),
    chooseSaveFile: async (suggestedName) => {
      const win = getWindow();
      const opts = { title: 'Export CSV', defaultPath: join(documentsDir, suggestedName), filters: [{ name: 'CSV', extensions: ['csv'] }] };
      const r = win ? await dialog.showSaveDialog(win, opts) : await dialog.showSaveDialog(opts);
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    showItemInFolder: (path) => shell.showItemInFolder(path),
    emit: (event, payload) => {
      const win = getWindow();
      if (win && !win.isDestroyed()) win.webContents.send(eventChannelOf(event), payload);
    },
  };
}
