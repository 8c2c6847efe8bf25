// Main's dialogs and the window they belong to. While the window is open a dialog is attached to it
// (a sheet on macOS, modal elsewhere); once it is closed, a dialog stands on its own. On macOS the
// app keeps running after Cmd+W, and main still holds the closed window's object: Electron refuses a
// destroyed window as a dialog's parent, which left Help › Report a problem… silent and turned the
// update offer into "Later" without asking.
import type { MessageBoxOptions, MessageBoxReturnValue, OpenDialogOptions, OpenDialogReturnValue, SaveDialogOptions, SaveDialogReturnValue } from 'electron';

/** What a dialog's parent must say of itself. */
export interface ParentWindow {
  isDestroyed(): boolean;
}

/** The window when it is still open, else null. */
export function liveWindow<W extends ParentWindow>(w: W | null | undefined): W | null {
  return w && !w.isDestroyed() ? w : null;
}

/** The parts of Electron's `dialog` main uses, each with a parent window or without one. */
export interface ParentDialog<W> {
  showMessageBox(window: W, options: MessageBoxOptions): Promise<MessageBoxReturnValue>;
  showMessageBox(options: MessageBoxOptions): Promise<MessageBoxReturnValue>;
  showSaveDialog(window: W, options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
  showSaveDialog(options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
  showOpenDialog(window: W, options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
  showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
}

/** Dialogs attached to `window()` while it is open, and on their own when it is not (or not yet). */
export function windowDialogs<W extends ParentWindow>(dialog: ParentDialog<W>, window: () => W | null) {
  return {
    showMessageBox(options: MessageBoxOptions): Promise<MessageBoxReturnValue> {
      const parent = liveWindow(window());
      return parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options);
    },
    showSaveDialog(options: SaveDialogOptions): Promise<SaveDialogReturnValue> {
      const parent = liveWindow(window());
      return parent ? dialog.showSaveDialog(parent, options) : dialog.showSaveDialog(options);
    },
    showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue> {
      const parent = liveWindow(window());
      return parent ? dialog.showOpenDialog(parent, options) : dialog.showOpenDialog(options);
    },
  };
}
