// The keys that work in every view (the workbench's own: OpportunitiesView):
// ? the shortcuts, L the list, I Insights, W Results (what the outreach won),
// S Settings, B the brand switcher.
// Never while typing in a field, never while a dialog is open, never with
// Ctrl, Cmd or Alt (those are the system's and the menu's).
import type { AppStore } from '../state/app.svelte';

/** Focus is in a field that takes text (its keys are its own). */
export function typingIn(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable === true);
}

/** Focus is on a control that Enter or Space activates (a button, a link, a summary, a check box). */
export function activatable(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return el.closest('button, a[href], summary, [role="button"], [role="link"], [role="checkbox"], [role="menuitem"], [role="tab"]') !== null;
}

export const dialogOpen = (): boolean => document.querySelector('dialog[open]') !== null;

export function globalKey(e: KeyboardEvent, app: AppStore): void {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target) || dialogOpen()) return;
  if (!app.loaded) return;
  const go: Record<string, () => void> = {
    '?': () => app.showHelp(true),
    L: () => app.show('opportunities'),
    I: () => app.show('insights'),
    W: () => app.show('results'),
    S: () => app.show('settings'),
    B: () => document.getElementById('brand')?.focus(),
  };
  const fn = go[e.key];
  if (!fn) return;
  e.preventDefault();
  fn();
}
