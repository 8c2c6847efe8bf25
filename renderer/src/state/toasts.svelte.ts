// Short messages at the foot of the window: what happened, or what failed and
// why; a triage action's message carries its Undo. Kept in their own strip
// (Toasts.svelte), so they never cover what the user acts on; at most three at
// once, the newest last, and an Undo or error pushed off waits for room.
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

/** How many toasts are on screen at once (a run of triage must not cover the detail pane). */
export const MAX_TOASTS = 3;

/** A toast the person may still act on (its Undo) or must read (an error): never dropped before its time. */
const keeps = (t: Toast) => t.action !== undefined || t.kind === 'error';

export class Toaster {
  #list = $state.raw<Toast[]>([]);
  #next = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();
  /** When each shown toast goes. */
  #due = new Map<number, number>();
  /** Toasts to keep that newer ones pushed off screen, oldest first, each with the time it had left: they come back as room frees. */
  #waiting: { toast: Toast; left: number }[] = [];

  get list(): Toast[] {
    return this.#list;
  }

  /** Show a toast last (always shown: the others make room); one with the same words as a shown one that asks nothing of the person takes its place; at most MAX_TOASTS stay on screen. */
  show(text: string, kind: Toast['kind'] = 'info', action?: ToastAction): void {
    const same = this.#list.find((t) => t.text === text && !keeps(t));
    if (same) this.#take(same.id);
    const toast: Toast = { id: this.#next++, text, kind, ...(action ? { action } : {}) };
    this.#list = [...this.#list, toast];
    this.#start(toast.id, action ? TOAST_MS.action : TOAST_MS[kind]);
    while (this.#list.length > MAX_TOASTS) {
      const plain = this.#list.find((t) => !keeps(t) && t.id !== toast.id);
      if (plain) {
        this.#take(plain.id);
        continue;
      }
      const oldest = this.#list[0]!;
      this.#waiting.push({ toast: oldest, left: Math.max(0, (this.#due.get(oldest.id) ?? 0) - Date.now()) });
      this.#take(oldest.id);
    }
  }

  /** Take a toast away now (its button was used, or its time is up); one waiting comes back in its place. */
  close(id: number): void {
    this.#waiting = this.#waiting.filter((w) => w.toast.id !== id);
    this.#take(id);
    while (this.#list.length < MAX_TOASTS && this.#waiting.length > 0) {
      const back = this.#waiting.pop()!;
      this.#list = [back.toast, ...this.#list];
      this.#start(back.toast.id, back.left);
    }
  }

  dispose(): void {
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
  }

  #start(id: number, ms: number): void {
    this.#due.set(id, Date.now() + ms);
    this.#timers.set(
      id,
      setTimeout(() => this.close(id), ms),
    );
  }

  /** Off the screen, its timer stopped. */
  #take(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.#due.delete(id);
    this.#list = this.#list.filter((t) => t.id !== id);
  }
}
