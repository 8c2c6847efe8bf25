// Checks before the app starts: the switches the packaged app refuses, and
// demo mode's own user-data folder (hence its own single-instance lock).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { demoUserDataDir, forbiddenSwitch } from '../../../electron/main/startup-checks';

const EXE = '/opt/Outreach Workbench/outreach-workbench';

describe('switches the packaged app refuses', () => {
  it.each([
    // The ones named in the issue, in every spelling Chromium or Node accepts.
    ['--remote-debugging-port=9222', '--remote-debugging-port'],
    ['--remote-debugging-port', '--remote-debugging-port'],
    ['--REMOTE-DEBUGGING-PORT=9222', '--remote-debugging-port'],
    ['-remote-debugging-port=0', '--remote-debugging-port'],
    ['--remote-debugging-pipe', '--remote-debugging-pipe'],
    ['--remote-debugging-address=0.0.0.0', '--remote-debugging-address'],
    ['--remote-allow-origins=*', '--remote-allow-origins'],
    ['--inspect', '--inspect'],
    ['--inspect=0.0.0.0:9229', '--inspect'],
    ['--inspect-brk', '--inspect-brk'],
    ['--inspect_brk=9229', '--inspect-brk'],
    ['--inspect-brk-node', '--inspect-brk-node'],
    ['--inspect-port=9230', '--inspect-port'],
    ['--Inspect-Wait', '--inspect-wait'],
    ['--debug', '--debug'],
    ['--debug-brk=5858', '--debug-brk'],
    ['--js-flags=--allow-natives-syntax', '--js-flags'],
    ['--js-flags="--expose-gc --trace-opt"', '--js-flags'],
    ['  --inspect  ', '--inspect'],
    // Others that attach, wrap the key-holding processes, leak traffic or lower the guards.
    ['--wait-for-debugger-children=renderer', '--wait-for-debugger-children'],
    ['--utility-cmd-prefix=gdb --args', '--utility-cmd-prefix'],
    ['--renderer-cmd-prefix=strace', '--renderer-cmd-prefix'],
    ['--ssl-key-log-file=/tmp/keys.txt', '--ssl-key-log-file'],
    ['--log-net-log=/tmp/net.json', '--log-net-log'],
    ['--ignore-certificate-errors', '--ignore-certificate-errors'],
    ['--disable-web-security', '--disable-web-security'],
    ['--enable-logging=stderr', '--enable-logging'],
  ])('%s -> refused as %s', (arg, refused) => {
    expect(forbiddenSwitch([EXE, arg], 'linux')).toBe(refused);
  });

  it.each([
    [[EXE]],
    [[EXE, '--demo']],
    [[EXE, '--no-sandbox']],
    [[EXE, '--proxy-server=http://proxy:8080']],
    [[EXE, '--lang=de']],
    [[EXE, 'notes--inspect.txt']],
    [[EXE, '/inspect']], // a path on Linux and macOS, not a switch
    [[EXE, '--inspector-notes']],
    [[EXE, '--remote-debugging-portal']],
    [[EXE, '---inspect']],
    [[EXE, 'inspect']],
    [[EXE, '-psn_0_12345']], // macOS process serial number
  ])('%j starts', (argv) => {
    expect(forbiddenSwitch(argv, 'darwin')).toBeNull();
  });

  it('on Windows, a /switch counts too (Chromium accepts it there)', () => {
    expect(forbiddenSwitch(['C:\\Program Files\\Outreach Workbench\\Outreach Workbench.exe', '/remote-debugging-port=9222'], 'win32')).toBe(
      '--remote-debugging-port',
    );
    expect(forbiddenSwitch(['C:\\Program Files\\Outreach Workbench\\Outreach Workbench.exe', '/Inspect'], 'win32')).toBe('--inspect');
    expect(forbiddenSwitch(['C:\\Program Files\\Outreach Workbench\\Outreach Workbench.exe', 'C:\\Users\\me\\notes.txt'], 'win32')).toBeNull();
  });

  it('a switch after a bare `--`, or after harmless ones, is still found; the first one is named', () => {
    expect(forbiddenSwitch([EXE, '--', '--inspect'], 'linux')).toBe('--inspect');
    expect(forbiddenSwitch([EXE, '--demo', '--lang=en', '--js-flags=--jitless', '--inspect'], 'linux')).toBe('--js-flags');
  });

  it('uses the running platform when none is given', () => {
    expect(forbiddenSwitch([EXE, '--remote-debugging-pipe'])).toBe('--remote-debugging-pipe');
    expect(forbiddenSwitch([EXE])).toBeNull();
  });
});

describe("demo mode's own user-data folder", () => {
  it('sits beside the real one, never inside it', () => {
    const appData = join('/home/u/.config');
    const real = join(appData, 'Outreach Workbench');
    const demo = demoUserDataDir(appData, 'Outreach Workbench');
    expect(demo).toBe(join(appData, 'Outreach Workbench Demo'));
    expect(demo).not.toBe(real);
    expect(demo.startsWith(real + '/')).toBe(false);
  });

  it('on macOS the same way (Application Support)', () => {
    expect(demoUserDataDir('/Users/u/Library/Application Support', 'Outreach Workbench')).toBe(
      join('/Users/u/Library/Application Support', 'Outreach Workbench Demo'),
    );
  });

  it('refuses a relative app-data folder (app.setPath needs an absolute one), and an empty product name still gets a name', () => {
    expect(() => demoUserDataDir('relative/dir', 'Outreach Workbench')).toThrow(/absolute/);
    expect(demoUserDataDir('/home/u/.config', '  ')).toBe(join('/home/u/.config', 'Outreach Workbench Demo'));
  });
});
