// The CLI's exit codes: one for each group of failures (shared/errors.ts), as
// the README's CLI section lists them, and 130 for a command the user stopped.
import { type ErrorGroup, type ErrorKind, errorGroup } from '../../shared/errors';

/** The exit code for each group of failures (shared/errors.ts), as the README's CLI section lists them. */
export const EXIT_CODES: Record<ErrorGroup, number> = { app: 1, input: 2, key: 3, service: 4, files: 5 };
/** A command the user stopped (Ctrl-C, or cancelled), as shells report SIGINT. */
export const EXIT_INTERRUPTED = 130;

export function exitCodeOf(kind: ErrorKind): number {
  return kind === 'cancelled' ? EXIT_INTERRUPTED : EXIT_CODES[errorGroup(kind)];
}
