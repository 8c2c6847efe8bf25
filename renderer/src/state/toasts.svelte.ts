// Short messages at the bottom of the window: what happened, or what failed and why.
export interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
}

export class Toaster {
  #list = $state.raw<Toast[]>([]);
  #next = 1;
  #timers = new Set<ReturnType<typeof setTimeout>>();

  get list(): Toast[] {
    return this.#list;
  }

  show(text: string, kind: Toast['kind'] = 'info'): void {
    const id = this.#next++;
    this.#list = [...this.#list, { id, text, kind }];
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        this.#list = this.#list.filter((t) => t.id !== id);
      },
      kind === 'error' ? 9000 : 4500,
    );
    this.#timers.add(timer);
  }

  dispose(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }
}
