// Answers arrive out of order: a request superseded by a newer one must not
// overwrite the newer answer. Each kind of request takes a turn; its answer is
// applied only while that turn is still the latest.
export class Latest {
  #turn = 0;

  /** Start a new request; earlier ones are superseded. Returns "is this still the latest?". */
  begin(): () => boolean {
    this.#turn++;
    return this.current();
  }

  /** Join the current turn without superseding it (e.g. one more page of the same list). */
  current(): () => boolean {
    const turn = this.#turn;
    return () => turn === this.#turn;
  }

  /** Supersede every request begun so far (the owner is going away). */
  cancel(): void {
    this.#turn++;
  }
}
