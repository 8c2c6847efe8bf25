// Checks before the app starts: the switches the packaged app refuses, and
// demo mode's own user-data folder (hence its own single-instance lock).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  demoUserDataDir,
  forbiddenSwitch,
  keychainServiceFor,
  profileUserDataDir,
  refusalWords,
  unsandboxedAppImage,
} from '../../../electron/main/startup-checks';

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

describe('an AppImage without its sandbox, and what refusing it says', () => {
  const APPIMAGE = { APPIMAGE: '/home/u/Outreach Workbench.AppImage' };
  it.each(['--no-sandbox', '--disable-setuid-sandbox', '--disable-namespace-sandbox', '--no-zygote-sandbox', '--disable-gpu-sandbox', '--No_Sandbox'])(
    'an AppImage on Linux with %s is refused',
    (arg) => {
      expect(unsandboxedAppImage([EXE, arg], APPIMAGE, 'linux')).toBe(arg.toLowerCase().replace('_', '-'));
    },
  );

  it('not an AppImage, or not Linux, or with its sandbox: not this refusal', () => {
    expect(unsandboxedAppImage([EXE, '--no-sandbox'], {}, 'linux')).toBeNull();
    expect(unsandboxedAppImage([EXE, '--no-sandbox'], APPIMAGE, 'darwin')).toBeNull();
    expect(unsandboxedAppImage([EXE, '--demo'], APPIMAGE, 'linux')).toBeNull();
  });

  it('it is told to install the .deb; any other refusal, to start without the option', () => {
    const appImage = refusalWords('--no-sandbox', { APPIMAGE: '/home/u/Outreach.AppImage' });
    expect(appImage.title).toBe('Outreach Workbench needs its .deb package on this system');
    expect(appImage.message).toMatch(
      /This copy of Outreach Workbench is an AppImage.*Ubuntu 24\.04 and later.*Install the \.deb package of the same version instead/,
    );
    expect(refusalWords('--inspect', { APPIMAGE: '/x' }).message).toMatch(/would let other programs inspect or control it/);
  });
});

describe('profiles', () => {
  it('the installed app, its demo, a run from the repository and its demo each have a folder and the first two share no keychain entry with the others', () => {
    const base = '/home/u/.config';
    expect(profileUserDataDir(base, 'Outreach Workbench', { demo: false, dev: false })).toBe(join(base, 'Outreach Workbench'));
    expect(profileUserDataDir(base, 'Outreach Workbench', { demo: true, dev: false })).toBe(join(base, 'Outreach Workbench Demo'));
    expect(profileUserDataDir(base, 'Outreach Workbench', { demo: false, dev: true })).toBe(join(base, 'Outreach Workbench Dev'));
    expect(profileUserDataDir(base, 'Outreach Workbench', { demo: true, dev: true })).toBe(join(base, 'Outreach Workbench Dev Demo'));
    expect(keychainServiceFor('Outreach Workbench', { dev: false })).toBe('Outreach Workbench');
    expect(keychainServiceFor('Outreach Workbench', { dev: true })).toBe('Outreach Workbench Dev');
  });
});

describe("electron-builder's AppImage launcher (its AppRun, run for real)", () => {
  // The launcher puts the AppImage's own folder first on PATH: a stand-in `unshare` there plays a system
  // with or without unprivileged user namespaces, and a stand-in app prints the arguments it was given.
  const { generateAppRunScript } = createRequire(import.meta.url)('app-builder-lib/out/targets/appimage/appImageUtil.js') as {
    generateAppRunScript(c: Record<string, string>): string;
  };
  function launch(namespaces: boolean): string[] {
    const dir = mkdtempSync(join(tmpdir(), 'appdir-'));
    try {
      writeFileSync(
        join(dir, 'AppRun'),
        generateAppRunScript({ ExecutableName: 'outreach-workbench', ProductName: 'Outreach Workbench', ProductFilename: 'Outreach Workbench' }),
        { mode: 0o755 },
      );
      writeFileSync(join(dir, 'unshare'), `#!/bin/sh\nexit ${namespaces ? 0 : 1}\n`, { mode: 0o755 });
      writeFileSync(join(dir, 'outreach-workbench'), '#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n', { mode: 0o755 });
      const r = spawnSync('bash', [join(dir, 'AppRun'), '--demo'], { env: { ...process.env, APPDIR: dir }, encoding: 'utf8' });
      expect(r.status).toBe(0);
      return r.stdout.split('\n').filter(Boolean);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it.runIf(process.platform === 'linux')(
    'where namespaces are forbidden (Ubuntu 24.04+) it adds --no-sandbox, and the app refuses that with the .deb words',
    () => {
      const argv = launch(false);
      expect(argv).toEqual(['--no-sandbox', '--demo']);
      expect(unsandboxedAppImage([EXE, ...argv], { APPIMAGE: '/home/u/x.AppImage' }, 'linux')).toBe('--no-sandbox');
    },
  );

  it.runIf(process.platform === 'linux')('where they are allowed it adds nothing, and the app starts', () => {
    const argv = launch(true);
    expect(argv).toEqual(['--demo']);
    expect(unsandboxedAppImage([EXE, ...argv], { APPIMAGE: '/home/u/x.AppImage' }, 'linux')).toBeNull();
  });
});
