// The context menu of the window's text fields and selected text, as plain data from Electron's
// 'context-menu' parameters: spelling suggestions and "Add to dictionary" for a misspelt word, then
// cut, copy, paste and select all (each enabled as the field allows); copy alone for selected text
// outside a field; nothing elsewhere. watchContextMenu wires it to a window's webContents; index.ts
// builds the template with Menu.buildFromTemplate and pops it up.
import type { MenuItemConstructorOptions } from 'electron';

/** The parts of Electron's ContextMenuParams the menu reads. */
export interface ContextMenuParamsLike {
  isEditable: boolean;
  selectionText: string;
  misspelledWord: string;
  dictionarySuggestions: string[];
  editFlags: { canCut: boolean; canCopy: boolean; canPaste: boolean; canSelectAll: boolean };
}

export interface ContextMenuActions {
  /** webContents.replaceMisspelling(word) */
  replaceMisspelling(word: string): void;
  /** session.addWordToSpellCheckerDictionary(word) */
  addToDictionary(word: string): void;
}

/** At most this many suggestions, as the platforms' own menus show. */
const MAX_SUGGESTIONS = 5;

export function contextMenuTemplate(params: ContextMenuParamsLike, actions: ContextMenuActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [];
  const word = params.misspelledWord.trim();
  if (params.isEditable && word) {
    const suggestions = params.dictionarySuggestions.slice(0, MAX_SUGGESTIONS);
    if (suggestions.length === 0) items.push({ label: 'No spelling suggestions', enabled: false });
    for (const s of suggestions) items.push({ label: s, click: () => actions.replaceMisspelling(s) });
    items.push({ label: `Add “${word}” to dictionary`, click: () => actions.addToDictionary(word) }, { type: 'separator' });
  }
  if (params.isEditable) {
    const f = params.editFlags;
    items.push(
      { role: 'cut', enabled: f.canCut },
      { role: 'copy', enabled: f.canCopy },
      { role: 'paste', enabled: f.canPaste },
      { type: 'separator' },
      { role: 'selectAll', enabled: f.canSelectAll },
    );
  } else if (params.selectionText.trim()) {
    items.push({ role: 'copy', enabled: params.editFlags.canCopy });
  }
  return items;
}

/** The parts of a webContents the menu is wired to (Electron's 'context-menu' event, replaceMisspelling, its session). */
export interface ContextMenuWebContents {
  on(event: 'context-menu', listener: (event: unknown, params: ContextMenuParamsLike) => void): unknown;
  replaceMisspelling(word: string): void;
  readonly session: { addWordToSpellCheckerDictionary(word: string): boolean };
}

/** On each right-click, the menu for what is under it, handed to `popup` (none where it would be empty). */
export function watchContextMenu(wc: ContextMenuWebContents, popup: (template: MenuItemConstructorOptions[]) => void): void {
  wc.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, {
      replaceMisspelling: (word) => wc.replaceMisspelling(word),
      addToDictionary: (word) => void wc.session.addWordToSpellCheckerDictionary(word),
    });
    if (template.length > 0) popup(template);
  });
}
