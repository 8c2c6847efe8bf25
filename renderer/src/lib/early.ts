// An answer asked for ahead of time (the first list at launch, while the
// window is still being built), taken by the first request that asks exactly
// the same within a moment; any other request asks anew and the early answer
// is dropped. Held no longer than `maxAgeMs`, so it is never an old state.
export class Early<T> {
  #held: { key: string; answer: Promise<T>; at: number } | null = null;

  constructor(private readonly maxAgeMs = 2000) {}

  get held(): boolean {
    return this.#held !== null;
  }

  /** Keep `answer` for a request with these arguments; a failure is reported by the request that takes it. */
  put(args: unknown, answer: Promise<T>): void {
    answer.catch(() => {});
    this.#held = { key: JSON.stringify(args), answer, at: Date.now() };
  }

  /** The answer kept for exactly these arguments, or null; either way it is kept no longer. */
  take(args: unknown): Promise<T> | null {
    const h = this.#held;
    this.#held = null;
    return h && h.key === JSON.stringify(args) && Date.now() - h.at <= this.maxAgeMs ? h.answer : null;
  }
}
