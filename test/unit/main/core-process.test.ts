// Main's side and the core's side of the core process, joined through fakes
// shaped like Electron's API (test/support/fake-electron.ts), with the real
// app service and a real SQLite file behind them: the port is started, events
// are read from `.data`, init arrives with the port, a dead core never leaves
// a call hanging, and it is restarted once.
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { CoreLink, CoreSupervisor, type CoreInit, type HostHandlers } from '../../../shared/core-link';
import { forkCore } from '../../../electron/main/core-process';
import { runCore } from '../../../electron/core-process/run';
import { FakeKeychain } from '../../support/fake-platform';
import { FakeMessageChannelMain, fakeUtilityProcess, type FakeMessagePortMain, type FakeUtilityProcess } from '../../support/fake-electron';
import { tempDir } from '../../support/tmp';

const corePath = fileURLToPath(new URL('../../../electron/core-process/index.ts', import.meta.url));
const host: HostHandlers = {
  'clipboard:write': () => null,
  'shell:open-external': () => null,
  'shell:show-item-in-folder': () => null,
  'dialog:save-file': () => null,
};
const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function init(): CoreInit {
  const t = tempDir();
  dirs.push(t);
  return { userDataDir: t.dir, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux', demo: false };
}

/** A fake utility process whose "child" runs the real runCore() in this process. */
function electronLike() {
  const exits: number[] = [];
  const up = fakeUtilityProcess((child: FakeUtilityProcess) => {
    void runCore(child.parentPort as never, { keychain: new FakeKeychain(), exit: (code) => (exits.push(code), child.crash(code)) });
  });
  return { api: { utilityProcess: up, MessageChannelMain: FakeMessageChannelMain }, up, exits };
}

describe('the core process through Electron-shaped fakes', () => {
  it('forks a file path, sends init with one port, and answers calls over it', async () => {
    const { api, up } = electronLike();
    const proc = forkCore(api as never, corePath, init(), { PATH: '/bin' });
    const link = new CoreLink(proc, { host, onEvent: () => {} });
    expect(await link.ready()).toBeNull();
    expect(up.calls).toHaveLength(1);
    expect(up.calls[0]!.modulePath).toBe(corePath);
    expect(up.calls[0]!.options).toMatchObject({ env: { PATH: '/bin' } });
    const r = await link.call('app:info', []);
    expect(r).toMatchObject({ ok: true, value: { name: 'Outreach Workbench', demo: false } });
    expect(await link.shutdown(3_000)).toBe('closed');
  });

  it('the core starts its port: without start() nothing would arrive', async () => {
    let childPort: FakeMessagePortMain | undefined;
    const up = fakeUtilityProcess((child) => {
      child.parentPort.once('message', (e: { ports: FakeMessagePortMain[] }) => (childPort = e.ports[0]));
      void runCore(child.parentPort as never, { keychain: new FakeKeychain(), exit: () => {} });
    });
    const link = new CoreLink(forkCore({ utilityProcess: up, MessageChannelMain: FakeMessageChannelMain } as never, corePath, init(), {}), { host, onEvent: () => {} });
    expect(await link.ready()).toBeNull();
    expect(childPort?.isStarted).toBe(true);
    await link.shutdown(3_000);
  });

  it('a value that cannot be structured-cloned is refused with a plain error, not sent', async () => {
    const { api } = electronLike();
    const link = new CoreLink(forkCore(api as never, corePath, init(), {}), { host, onEvent: () => {} });
    await link.ready();
    const r = await link.call('opportunities:get', [{ brandId: 'x', id: 'y', fn: () => 1 }]);
    expect(r.ok).toBe(false);
    await link.shutdown(3_000);
  });

  it('a core that dies rejects pending calls at once, is restarted once, then stays down with a clear message', async () => {
    const children: FakeUtilityProcess[] = [];
    const up = fakeUtilityProcess((child) => {
      children.push(child);
      void runCore(child.parentPort as never, { keychain: new FakeKeychain(), exit: () => {} });
    });
    const crashes: string[] = [];
    const sup = new CoreSupervisor({
      spawn: () => forkCore({ utilityProcess: up, MessageChannelMain: FakeMessageChannelMain } as never, corePath, init(), {}),
      host,
      onEvent: () => {},
      onCrash: (state) => crashes.push(state),
    });
    expect(await sup.ready()).toBeNull();
    // A call in flight when the process dies answers with an error instead of hanging.
    const pending = sup.call('app:state', []);
    children[0]!.crash();
    const r = await pending;
    expect(r).toMatchObject({ ok: false, error: { kind: 'core-stopped' } });
    expect(crashes).toEqual(['restarted']);
    expect(await sup.ready()).toBeNull();
    expect(await sup.call('app:info', [])).toMatchObject({ ok: true });
    children[1]!.crash();
    expect(crashes).toEqual(['restarted', 'failed']);
    expect(children).toHaveLength(2);
    const after = await sup.call('app:info', []);
    expect(after).toMatchObject({ ok: false, error: { kind: 'core-stopped' } });
    if (!after.ok) expect(after.error.message).toMatch(/engine stopped/);
  });

  it('a cache that cannot open is reported as a failure, with its kind, before any call', async () => {
    const { api } = electronLike();
    const bad = init();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${bad.userDataDir}/workbench.db`, 'this is not a database, it is a text file that lost its header'.repeat(200));
    const link = new CoreLink(forkCore(api as never, corePath, bad, {}), { host, onEvent: () => {} });
    const failure = await link.ready();
    expect(failure).not.toBeNull();
    expect(failure!.kind).toBe('corrupt');
    await link.shutdown(1_000);
  });
});
