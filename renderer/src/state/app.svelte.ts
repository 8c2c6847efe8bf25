// The app's frame state: who we are, the key, online, settings, brands, sync.
import type { AppState, KeyStatus, Settings, SyncState } from '../../../shared/contract';
import type { CachedBrand, SyncEvent } from '../../../shared/model';
import { call, on } from '../lib/api.svelte';
import { errorText } from '../lib/format';

export type View = 'opportunities' | 'insights' | 'settings';

export interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
}

export class AppStore {
  loaded = $state(false);
  loadError = $state<string | null>(null);
  demo = $state(false);
  version = $state('');
  cachePath = $state('');
  key = $state<KeyStatus | null>(null);
  online = $state(true);
  settings = $state<Settings | null>(null);
  brands = $state.raw<CachedBrand[]>([]);
  brandId = $state<string | null>(null);
  view = $state<View>('opportunities');
  sync = $state<SyncState | null>(null);
  /** The latest progress event of a running sync. */
  progress = $state<SyncEvent | null>(null);
  /** Seconds left in a rate-limit wait, counted down. */
  waitLeft = $state(0);
  toasts = $state<Toast[]>([]);
  /** Bumped whenever synced data may have changed, so lists reload. */
  dataVersion = $state(0);
  private nextToast = 1;
  private waitTimer: ReturnType<typeof setInterval> | null = null;

  readonly brand = $derived(this.brands.find((b) => b.id === this.brandId) ?? null);
  readonly hasKey = $derived(this.key !== null && this.key.state !== 'none');
  readonly syncing = $derived(this.sync?.running ?? false);

  async load(): Promise<void> {
    try {
      this.apply(await call('app:state'));
      this.loaded = true;
    } catch (e) {
      this.loadError = errorText(e);
    }
    on('sync:event', ({ event }) => {
      this.progress = event;
      if (this.sync) this.sync = { ...this.sync, running: true };
      if (event.type === 'wait') this.countdown(event.seconds);
      if (event.type === 'brands' || event.type === 'brand-done') void this.refreshBrands();
      if (event.type === 'brand-done') this.dataVersion++;
    });
    on('sync:done', ({ summary }) => {
      this.progress = null;
      this.countdown(0);
      void call('app:state').then((s) => this.apply(s));
      this.dataVersion++;
      if (summary.error) this.toast(`Sync stopped: ${summary.error.message}`, 'error');
      else if (summary.cancelled) this.toast('Sync cancelled.');
      else {
        const added = summary.brands.reduce((a, b) => a + b.added, 0);
        const changed = summary.brands.reduce((a, b) => a + b.changed, 0);
        const failures = summary.brands.flatMap((b) => b.failures);
        this.toast(failures.length ? `Synced with ${failures.length} problem${failures.length === 1 ? '' : 's'}: ${failures[0]!.message}` : `Synced: ${added} new, ${changed} changed.`, failures.length ? 'error' : 'info');
      }
    });
    on('app:online', ({ online }) => (this.online = online));
    on('key:status', (k) => (this.key = k));
    on('core:status', ({ state, message }) => {
      this.progress = null;
      this.countdown(0);
      this.toast(message, 'error');
      if (state === 'restarted') {
        void call('app:state').then(
          (s) => this.apply(s),
          () => {},
        );
        this.dataVersion++;
      }
    });
  }

  apply(s: AppState): void {
    this.demo = s.info.demo;
    this.version = s.info.version;
    this.cachePath = s.info.cachePath;
    this.key = s.key;
    this.online = s.online;
    this.settings = s.settings;
    this.sync = s.sync;
    this.brands = s.brands.filter((b) => !b.removed_on_server);
    if (!this.brandId || !this.brands.some((b) => b.id === this.brandId)) this.brandId = this.brands[0]?.id ?? null;
  }

  async refreshBrands(): Promise<void> {
    this.brands = (await call('brands:list')).filter((b) => !b.removed_on_server);
    if (!this.brandId) this.brandId = this.brands[0]?.id ?? null;
  }

  private countdown(seconds: number): void {
    if (this.waitTimer) clearInterval(this.waitTimer);
    this.waitLeft = Math.ceil(seconds);
    if (seconds <= 0) return;
    this.waitTimer = setInterval(() => {
      this.waitLeft = Math.max(0, this.waitLeft - 1);
      if (this.waitLeft === 0 && this.waitTimer) clearInterval(this.waitTimer);
    }, 1000);
  }

  toast(text: string, kind: Toast['kind'] = 'info'): void {
    const id = this.nextToast++;
    this.toasts = [...this.toasts, { id, text, kind }];
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t.id !== id)), kind === 'error' ? 9000 : 4500);
  }

  async startSync(): Promise<void> {
    try {
      await call('sync:start', {});
      this.sync = { ...(this.sync ?? { lastSummary: null, lastFinishedAt: null, last: null, jobId: null }), running: true };
    } catch (e) {
      this.toast(errorText(e), 'error');
    }
  }

  async cancelSync(): Promise<void> {
    if (this.sync?.jobId) await call('sync:cancel', { jobId: this.sync.jobId });
  }

  async setKey(key: string, sessionOnly = false): Promise<void> {
    this.key = await call('keys:set', { key, sessionOnly });
    await this.refreshBrands();
    await this.startSync();
  }

  async clearKey(): Promise<void> {
    this.key = await call('keys:clear');
  }

  async startDemo(): Promise<void> {
    await call('demo:start');
    this.apply(await call('app:state'));
    this.sync = { ...(this.sync ?? { lastSummary: null, lastFinishedAt: null, last: null, jobId: null }), running: true };
  }

  async saveSettings(patch: Partial<Settings>): Promise<void> {
    try {
      this.settings = await call('settings:set', patch);
      this.toast('Settings saved.');
    } catch (e) {
      this.toast(errorText(e), 'error');
    }
  }
}
