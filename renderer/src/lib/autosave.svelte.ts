// Text the user types (a note, a draft) saved as they type: once typing
// pauses, and at once when asked (the field loses focus, the selection moves,
// the window goes). Each edit carries what it was typed for (its brand and
// opportunity), so a save always goes to that one, whatever is on screen by
// then; the last keystroke is never lost (a save on its way when more is
// typed leaves the state unsaved, and the newer text is saved next). One
// vocabulary of save states for every field, and one set of words for them.

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';

/** What a field's save state says beside it. */
export const SAVE_WORDS: Readonly<Record<SaveState, string>> = { saved: 'Saved', saving: 'Saving…', unsaved: 'Unsaved', error: 'Not saved' };

export interface AutosaveOptions<T> {
  /** Typing pauses this long before the text is saved. */
  delayMs: number;
  /** Save one edit (it carries what it was typed for). Rejects when it could not be saved. */
  save: (value: T) => Promise<void>;
  /** Saved, and the same text is still on screen (not cleared since): e.g. read it back as the core fills it. Never rejects. */
  saved?: (value: T) => Promise<void>;
  /** A save failed: say why (the text stays, and is tried again at the next flush). */
  failed: (e: unknown) => void;
}

export class Autosave<T> {
  #state = $state<SaveState>('saved');
  /** The latest edit not yet saved (null: nothing waits). */
  #pending: T | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped by clear(): a save begun before it leaves the state alone. */
  #generation = 0;
  readonly #o: AutosaveOptions<T>;

  constructor(options: AutosaveOptions<T>) {
    this.#o = options;
  }

  get state(): SaveState {
    return this.#state;
  }
  /** Typed text waits to be saved (unsaved, or its save failed). */
  get waiting(): boolean {
    return this.#state === 'unsaved' || this.#state === 'error';
  }

  /** Typed: saved once typing pauses. */
  edit(value: T): void {
    this.#pending = value;
    this.#state = 'unsaved';
    this.pause();
    this.#timer = setTimeout(() => void this.flush(), this.#o.delayMs);
  }

  /** Save what waits now (the pause, a blur, a move, the window going). Never rejects. */
  async flush(): Promise<void> {
    this.pause();
    const value = this.#pending;
    if (value === null || !this.waiting) return;
    const generation = this.#generation;
    this.#state = 'saving';
    try {
      await this.#o.save(value);
    } catch (e) {
      if (generation === this.#generation) this.#state = 'error';
      this.#o.failed(e);
      return;
    }
    if (generation !== this.#generation) return;
    // Typed on while it was saved: the newer text waits (its timer runs).
    if (this.#pending === value) {
      this.#pending = null;
      this.#state = 'saved';
    } else this.#state = 'unsaved';
    await this.#o.saved?.(value);
  }

  /** Stop the pause's timer (what waits stays waiting). */
  pause(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Nothing waits any more (another text is on screen, or the typed one was replaced): saved, and a save on its way leaves the state alone. */
  clear(): void {
    this.pause();
    this.#generation++;
    this.#pending = null;
    this.#state = 'saved';
  }
}
