// The user's own openings and sign-offs (snippets), inserted in a draft with a
// key (Ctrl+J) and kept in Settings. One list for the window, read once and
// again after every change; the latest answer wins; a failure says why.
import type { SnippetRecord } from '../../../shared/user-record';
import { call } from '../lib/api.svelte';
import { errorText } from '../lib/format';
import { Latest } from '../lib/latest';
import type { Frame } from './frame';

export type SnippetKind = SnippetRecord['kind'];
export const SNIPPET_KINDS: readonly [SnippetKind, string][] = [
  ['opening', 'Opening'],
  ['signoff', 'Sign-off'],
  ['other', 'Other'],
];

export class SnippetList {
  #list = $state.raw<SnippetRecord[]>([]);
  #loaded = $state(false);
  #error = $state<string | null>(null);
  #turn = new Latest();
  readonly #app: Frame;

  constructor(app: Frame) {
    this.#app = app;
  }

  /** Openings first, then sign-offs, then the rest; by name within each. */
  get list(): SnippetRecord[] {
    return this.#list;
  }
  get loaded(): boolean {
    return this.#loaded;
  }
  /** The last save or removal refused, in plain words (shown beside the form). */
  get error(): string | null {
    return this.#error;
  }

  /** Read the list (once, or again). Never rejects. */
  async load(): Promise<void> {
    const fresh = this.#turn.begin();
    try {
      const all = await call('snippets:list');
      if (!fresh()) return;
      const order: Record<SnippetKind, number> = { opening: 0, signoff: 1, other: 2 };
      this.#list = [...all].sort((a, b) => order[a.kind] - order[b.kind] || a.name.localeCompare(b.name));
      this.#loaded = true;
    } catch (e) {
      if (fresh()) this.#app.fail('The snippets could not be read')(e);
    }
  }

  /** Add a snippet, or change one (with its id). True when saved. Never rejects. */
  async save(s: { id?: string; kind: SnippetKind; name: string; text: string }): Promise<boolean> {
    this.#error = null;
    if (s.name.trim() === '') {
      this.#error = 'Give the snippet a name.';
      return false;
    }
    try {
      await call('snippets:save', { ...s, name: s.name.trim() });
      this.#app.toast(s.id ? `Snippet “${s.name.trim()}” saved.` : `Snippet “${s.name.trim()}” added.`);
      await this.load();
      return true;
    } catch (e) {
      this.#error = errorText(e);
      this.#app.fail('The snippet could not be saved')(e);
      return false;
    }
  }

  /** Never rejects. */
  async remove(id: string): Promise<boolean> {
    this.#error = null;
    const name = this.#list.find((s) => s.id === id)?.name ?? 'The snippet';
    try {
      const r = await call('snippets:remove', { id });
      if (r.removed) this.#app.toast(`Snippet “${name}” removed.`);
      await this.load();
      return r.removed;
    } catch (e) {
      this.#app.fail('The snippet could not be removed')(e);
      return false;
    }
  }

  dispose(): void {
    this.#turn.cancel();
  }
}
