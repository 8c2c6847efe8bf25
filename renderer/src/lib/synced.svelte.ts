// How long ago the brand on screen was last synced, in one wording for the
// header ("Synced 1 min ago") and the no-key banner ("as it was last synced
// 1 min ago"): one source (AppState.lastSynced), one clock that moves on while
// either is shown, so the two never disagree.
import { createSubscriber } from 'svelte/reactivity';
import { ago } from './format';

/** How often the words move on: "just now" becomes "1 min ago" without anything else changing. */
export const SYNCED_TICK_MS = 30_000;

const ticking = createSubscriber((update) => {
  const t = setInterval(update, SYNCED_TICK_MS);
  return () => clearInterval(t);
});

/** "just now", "3 min ago", or null when never synced; read in a template or effect, it is read again as time passes. */
export function syncedAgo(lastSynced: string | null): string | null {
  ticking();
  return lastSynced ? ago(lastSynced, Date.now()) : null;
}
