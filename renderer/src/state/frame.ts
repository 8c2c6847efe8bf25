// What the stores need of the window's frame, handed to each at construction
// (callbacks, as svelte.dev's Workspace.svelte.ts takes its collaborators):
// the one current brand (the brand on screen), and the toasts. No store holds
// another store; AppStore.frame is the one the window passes.
import type { Toast, ToastAction } from './toasts.svelte';

export interface Frame {
  /** The brand on screen: the one current brand (null before the brands are read). */
  readonly brandId: string | null;
  /** Say something in a toast (with a button, e.g. Undo). */
  toast(text: string, kind?: Toast['kind'], action?: ToastAction): void;
  /** A handler for a failed call: a toast saying what failed and why, in plain words. */
  fail(what: string): (e: unknown) => void;
}
