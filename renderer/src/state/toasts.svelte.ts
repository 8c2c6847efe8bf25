// Short messages at the foot of the window: what happened, or what failed and
// why; a triage action's message carries its Undo. Kept in their own strip
// (Toasts.svelte), so they never cover what the user acts on.
export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
  /** A button beside the text (Undo), which also closes the toast. */
  action?: ToastAction;
}

/** How long a toast stays: longer for an error or one with a button (time to read it and reach the button). */
export const TOAST_MS = { info: 4500, error: 9000, action: 9000 } as const;

export class Toaster {
  #list = $state.raw<Toast[]>([]);
  #next = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  get list(): Toast[] {
    return this.#list;
  }

  show(text: string, kind: Toast['kind'] = 'info', action?: ToastAction): void {
    const id = this.#next++;
    this.#list = [...this.#list, { id, text, kind, ...(action ? { action } : {}) }];
    const timer = setTimeout(() => this.close(id), action ? TOAST_MS.action : TOAST_MS[kind]);
    this.#timers.set(id, timer);
  }

  /** Take a toast away now (its button was used). */
  close(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.#list = this.#list.filter((t) => t.id !== id);
  }

  dispose(): void {
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
  }
}
