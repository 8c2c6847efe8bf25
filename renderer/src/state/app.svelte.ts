// The app's frame state: who we are, the key, online, settings, brands, sync,
// and the toasts. One instance for the window, provided through context
// (state/context.ts); load() subscribes to main's events, dispose() lets go.
import type { AppState, KeyStatus, Settings, SettingsPatch, SyncState } from '../../../shared/contract';
import type { CachedBrand, SyncEvent } from '../../../shared/model';
import { call, on } from '../lib/api.svelte';
import { errorText } from '../lib/format';
import { Latest } from '../lib/latest';
import { Toaster, type Toast, type ToastAction } from './toasts.svelte';
import { recall, remember } from '../lib/remembered';
import { syncSummaryWords } from '../lib/sync-words';

export type View = 'opportunities' | 'insights' | 'results' | 'settings';
type Recovery = NonNullable<AppState['recovery']>;
export type { Toast };

const IDLE_SYNC: SyncState = { running: false, lastSummary: null, lastFinishedAt: null, last: null, jobId: null };

export class AppStore {
  #loaded = $state(false);
  #loadError = $state<string | null>(null);
  #demo = $state(false);
  #version = $state('');
  #cachePath = $state('');
  #cacheBytes = $state(0);
  #key = $state.raw<KeyStatus | null>(null);
  #online = $state(true);
  #settings = $state.raw<Settings | null>(null);
  #brands = $state.raw<CachedBrand[]>([]);
  #brandId = $state<string | null>(null);
  #view = $state<View>(recall().view ?? 'opportunities');
  #help = $state(false);
  #sync = $state.raw<SyncState | null>(null);
  #progress = $state.raw<SyncEvent | null>(null);
  #waitLeft = $state(0);
  #dataVersion = $state(0);
  #arrived = $state(0);
  #recovery = $state.raw<Recovery | null>(null);
  #toaster = new Toaster();
  #waitTimer: ReturnType<typeof setInterval> | null = null;
  #unsubscribe: (() => void)[] = [];
  #stateTurn = new Latest();
  #brandsTurn = new Latest();
  #settingsTurn = new Latest();
  /** A dismissed notice stays dismissed: an app:state answer begun before the dismissal is not applied to it. */
  #recoveryTurn = new Latest();
  /** An online or key event is newer than an app:state answer begun before it: that answer leaves both alone. */
  #pushedTurn = new Latest();

  get loaded(): boolean {
    return this.#loaded;
  }
  get loadError(): string | null {
    return this.#loadError;
  }
  get demo(): boolean {
    return this.#demo;
  }
  get version(): string {
    return this.#version;
  }
  get cachePath(): string {
    return this.#cachePath;
  }
  /** The cache file's size on disk. */
  get cacheBytes(): number {
    return this.#cacheBytes;
  }
  get key(): KeyStatus | null {
    return this.#key;
  }
  get online(): boolean {
    return this.#online;
  }
  get settings(): Settings | null {
    return this.#settings;
  }
  get brands(): CachedBrand[] {
    return this.#brands;
  }
  get brandId(): string | null {
    return this.#brandId;
  }
  get view(): View {
    return this.#view;
  }
  /** The keyboard shortcuts sheet is open (the `?` key, in every view). */
  get helpOpen(): boolean {
    return this.#help;
  }
  get sync(): SyncState | null {
    return this.#sync;
  }
  /** The latest progress event of a running sync. */
  get progress(): SyncEvent | null {
    return this.#progress;
  }
  /** Seconds left in a rate-limit wait, counted down. */
  get waitLeft(): number {
    return this.#waitLeft;
  }
  /** Bumped whenever synced data may have changed, so lists reload. */
  get dataVersion(): number {
    return this.#dataVersion;
  }
  /** Bumped as each page of the brand on screen arrives during a sync: its list shows the rows so far. */
  get arrived(): number {
    return this.#arrived;
  }
  get toasts(): Toast[] {
    return this.#toaster.list;
  }
  /** The cache was found damaged and rebuilt: what was recovered, in plain words, until the user dismisses it. */
  get recovery(): Recovery | null {
    return this.#recovery;
  }

  readonly brand = $derived(this.#brands.find((b) => b.id === this.#brandId) ?? null);
  /** When the brand on screen was last synced (or this session's last sync): the header and the no-key banner both say it from here. */
  readonly lastSynced = $derived(this.brand?.last_synced_at ?? this.#sync?.lastFinishedAt ?? null);
  readonly hasKey = $derived(this.#key !== null && this.#key.state !== 'none');
  readonly syncing = $derived(this.#sync?.running ?? false);

  /** Read the frame and follow main's events until dispose(). Never rejects: a failure is loadError. */
  /** `beforeShow`: runs once the state is known and before the workbench is built (to ask for its first list early). */
  async load(beforeShow?: () => void): Promise<void> {
    if (this.#unsubscribe.length === 0) this.#subscribe();
    try {
      await this.#refreshState();
      beforeShow?.();
      this.#loaded = true;
    } catch (e) {
      this.#loadError = errorText(e);
    }
  }

  /** Stop following main's events and stop every timer (the window or its owner is going). */
  dispose(): void {
    for (const off of this.#unsubscribe.splice(0)) off();
    this.#countdown(0);
    this.#toaster.dispose();
    this.#stateTurn.cancel();
    this.#brandsTurn.cancel();
    this.#settingsTurn.cancel();
    this.#recoveryTurn.cancel();
  }

  #subscribe(): void {
    this.#unsubscribe.push(
      on('sync:event', ({ event }) => {
        this.#progress = event;
        if (this.#sync) this.#sync = { ...this.#sync, running: true };
        if (event.type === 'wait') this.#countdown(event.seconds);
        if (event.type === 'blocked') this.toast(event.message);
        if (event.type === 'brands' || event.type === 'brand-done') this.#refreshBrands().catch(this.fail('The brands could not be read'));
        if (event.type === 'brand-done') this.#dataVersion++;
        // Each page is written as it arrives: the list on screen shows the rows so far (a first sync fills as you watch).
        else if (event.type === 'progress' && event.phase === 'opportunities' && event.brandId === this.#brandId) this.#arrived++;
      }),
      on('sync:done', ({ summary }) => {
        this.#progress = null;
        this.#countdown(0);
        this.#refreshState().catch(this.fail('The app state could not be read'));
        this.#dataVersion++;
        const said = syncSummaryWords(summary);
        this.toast(said.text, said.kind);
      }),
      on('app:online', ({ online }) => (this.#pushedTurn.begin(), (this.#online = online))),
      on('key:status', (k) => (this.#pushedTurn.begin(), (this.#key = k))),
      on('cache:recovered', ({ message }) => {
        // Found while open: the cache was rebuilt under the window, so everything on screen reads again.
        this.#recoveryTurn.begin();
        this.#recovery = { message, at: new Date().toISOString() };
        this.#refreshState().catch(this.fail('The app state could not be read'));
        this.#dataVersion++;
      }),
      on('cache:waiting', ({ message }) => this.toast(message)),
      on('core:status', ({ state, message }) => {
        this.#progress = null;
        this.#countdown(0);
        this.toast(message, 'error');
        if (state === 'restarted') {
          // The message above already says what happened; a failed re-read adds nothing.
          this.#refreshState().catch(() => {});
          this.#dataVersion++;
        }
      }),
    );
  }

  async #refreshState(): Promise<void> {
    const fresh = this.#stateTurn.begin();
    const brandsFresh = this.#brandsTurn.begin();
    const recoveryFresh = this.#recoveryTurn.current();
    const pushedFresh = this.#pushedTurn.current();
    const s = await call('app:state');
    if (fresh()) this.#apply(s, pushedFresh());
    if (brandsFresh()) this.#setBrands(s.brands);
    // A notice on screen goes only when the user dismisses it (a restarted core no longer knows of it).
    if (recoveryFresh() && (s.recovery || !this.#recovery)) this.#recovery = s.recovery;
  }

  async #refreshBrands(): Promise<void> {
    const fresh = this.#brandsTurn.begin();
    const brands = await call('brands:list');
    if (fresh()) this.#setBrands(brands);
  }

  #apply(s: AppState, pushedFresh: boolean): void {
    this.#demo = s.info.demo;
    this.#version = s.info.version;
    this.#cachePath = s.info.cachePath;
    this.#cacheBytes = s.info.cacheBytes;
    if (pushedFresh) [this.#key, this.#online] = [s.key, s.online];
    this.#settings = s.settings;
    this.#sync = s.sync;
  }

  #setBrands(all: CachedBrand[]): void {
    this.#brands = all.filter((b) => !b.removed_on_server);
    if (this.#brandId && this.#brands.some((b) => b.id === this.#brandId)) return;
    // The brand the window showed last time, while it is still there; else the first.
    const last = recall().brandId;
    this.#brandId = (this.#brands.find((b) => b.id === last) ?? this.#brands[0])?.id ?? null;
  }

  #countdown(seconds: number): void {
    if (this.#waitTimer) clearInterval(this.#waitTimer);
    this.#waitTimer = null;
    this.#waitLeft = Math.ceil(seconds);
    if (seconds <= 0) return;
    this.#waitTimer = setInterval(() => {
      this.#waitLeft = Math.max(0, this.#waitLeft - 1);
      if (this.#waitLeft === 0) this.#countdown(0);
    }, 1000);
  }

  /** Hide the recovery notice for good (main forgets it too). Never rejects. */
  async dismissRecovery(): Promise<void> {
    if (!this.#recovery) return;
    this.#recoveryTurn.begin();
    this.#recovery = null;
    await call('record:dismiss-recovery').catch(this.fail('The notice could not be dismissed'));
  }

  /** The user's record changed outside the list (a restore, an import): every view of the data reads again. */
  dataChanged(): void {
    this.#dataVersion++;
  }

  selectBrand(id: string | null): void {
    this.#brandId = id;
    if (id) remember({ brandId: id });
  }

  show(view: View): void {
    this.#view = view;
    remember({ view });
  }

  showHelp(open: boolean): void {
    this.#help = open;
  }

  toast(text: string, kind: Toast['kind'] = 'info', action?: ToastAction): void {
    this.#toaster.show(text, kind, action);
  }

  closeToast(id: number): void {
    this.#toaster.close(id);
  }

  /** A handler for a failed call: a toast saying what failed and why, in plain words. */
  fail(what: string): (e: unknown) => void {
    return (e) => this.toast(`${what}: ${errorText(e)}`, 'error');
  }

  #markRunning(): void {
    this.#sync = { ...(this.#sync ?? IDLE_SYNC), running: true };
  }

  async startSync(): Promise<void> {
    try {
      await call('sync:start', {});
      this.#markRunning();
    } catch (e) {
      this.toast(errorText(e), 'error');
    }
  }

  async cancelSync(): Promise<void> {
    const jobId = this.#sync?.jobId;
    if (jobId) await call('sync:cancel', { jobId }).catch(this.fail('The sync could not be cancelled'));
  }

  /** Check and store a key, then sync. Throws (the caller shows why the key was refused). */
  async setKey(key: string, sessionOnly = false): Promise<void> {
    this.#key = await call('keys:set', { key, sessionOnly });
    await this.#refreshBrands();
    await this.startSync();
  }

  /** Remove the stored key (the caller asked first); the cache stays open. Resolves whether it was removed; never rejects. */
  async clearKey(): Promise<boolean> {
    try {
      this.#key = await call('keys:clear');
      return true;
    } catch (e) {
      this.fail('The key could not be removed')(e);
      return false;
    }
  }

  async startDemo(): Promise<void> {
    try {
      await call('demo:start');
      await this.#refreshState();
      this.#markRunning();
    } catch (e) {
      this.fail('Demo mode could not start')(e);
    }
  }

  async resetDemo(): Promise<void> {
    try {
      await call('demo:reset');
      this.toast('Demo data reset; syncing again.');
    } catch (e) {
      this.fail('The demo data could not be reset')(e);
    }
  }

  /** Save settings and keep main's answer. Throws (the caller shows why, or asks to confirm a new API origin). */
  async updateSettings(patch: SettingsPatch): Promise<Settings> {
    const fresh = this.#settingsTurn.begin();
    const saved = await call('settings:set', patch);
    if (fresh()) this.#settings = saved;
    return saved;
  }

  async saveSettings(patch: SettingsPatch): Promise<void> {
    try {
      await this.updateSettings(patch);
      this.toast('Settings saved.');
    } catch (e) {
      this.toast(errorText(e), 'error');
    }
  }
}
