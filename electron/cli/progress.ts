// The progress line on a TTY: one line on stderr rewritten in place, cleared at
// the end; off a terminal it writes nothing (commands log whole lines instead).
import type { Io } from './context';
import { clip } from './output';

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** A spinner frame for the nth step. */
export const spinner = (n: number) => SPINNER[n % 10];

export class StatusLine {
  #line = '';
  readonly #io: Io;

  constructor(io: Io) {
    this.#io = io;
  }

  /** Replace the line's text (on a TTY only). */
  show(s: string): void {
    if (!this.#io.isTTY) return;
    const text = clip(s, 100);
    this.#io.err(`\r${text.padEnd(this.#line.length)}`);
    this.#line = text;
  }

  /** A message: on the line on a TTY, else a line of its own. */
  say(s: string): void {
    if (this.#io.isTTY) this.show(s);
    else this.#io.err(s + '\n');
  }

  /** Blank the line and return to its start (one step of work done). */
  blank(): void {
    this.show('');
    if (this.#io.isTTY) this.#io.err('\r');
  }

  /** Wipe whatever is left on the line, before the summary. */
  clear(): void {
    if (this.#io.isTTY && this.#line) this.#io.err('\r' + ' '.repeat(this.#line.length) + '\r');
  }
}
