// The context menu of the window's text fields and selected text, as plain data from Electron's
// 'context-menu' parameters: spelling suggestions and "Add to dictionary" for a misspelt word, then
// cut, copy, paste and select all (each enabled as the field allows); copy alone for selected text
// outside a field; nothing elsewhere. index.ts builds it with Menu.buildFromTemplate and pops it up.
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
