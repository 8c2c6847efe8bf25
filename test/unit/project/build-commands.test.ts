// The commands the build scripts start (build/scripts/commands.mjs), one function for every platform:
// Node runs the tool's JavaScript entry with shell: false, so a path with a space stays one argument
// and Windows never starts npm.cmd without a shell (Node 20.12+ refuses: EINVAL). And what
// `npm run dist` hands electron-builder (dist.mjs): nothing published unless asked, a signed release.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve, win32 } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../../support/tmp';

interface Command {
  command: string;
  args: string[];
  options: { shell: false; windowsHide: true };
}
interface Where {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  execPath?: string;
  exists?: (path: string) => boolean;
}
interface Commands {
  TOOL_ENTRIES: Record<string, string[]>;
  toolCommand(root: string, tool: string, args: string[], where?: Where): Command;
  npmCli(where?: Where): string | null;
  npmCommand(args: string[], where?: Where): Command;
}
interface Dist {
  builderArgs(extra: string[], where?: { platform?: NodeJS.Platform; env?: Record<string, string | undefined> }): string[];
  unpackedResources(releaseDir: string, sinceMs?: number): string[];
}

const commands = (await import(pathToFileURL(resolve('build/scripts/commands.mjs')).href)) as Commands;
const dist = (await import(pathToFileURL(resolve('build/scripts/dist.mjs')).href)) as Dist;

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const WINDOWS_NODE = 'C:\\Program Files\\nodejs\\node.exe';
const WINDOWS_ROOT = 'C:\\Users\\Jane Doe\\outreach workbench';

describe('a tool in node_modules', () => {
  it('on Windows: node.exe runs the tool’s .js entry, no shell, the project path with its spaces one argument', () => {
    const c = commands.toolCommand(WINDOWS_ROOT, 'electron-vite', ['build'], { platform: 'win32', execPath: WINDOWS_NODE });
    expect(c).toEqual({
      command: WINDOWS_NODE,
      args: ['C:\\Users\\Jane Doe\\outreach workbench\\node_modules\\electron-vite\\bin\\electron-vite.js', 'build'],
      options: { shell: false, windowsHide: true },
    });
  });

  it('on Linux and macOS: the same, with / paths', () => {
    const c = commands.toolCommand('/home/jane doe/wb', 'electron-builder', ['--dir'], { platform: 'linux', execPath: '/usr/bin/node' });
    expect(c.command).toBe('/usr/bin/node');
    expect(c.args).toEqual(['/home/jane doe/wb/node_modules/electron-builder/cli.js', '--dir']);
    expect(c.options.shell).toBe(false);
  });

  it('every tool entry the scripts name exists in node_modules', () => {
    for (const tool of Object.keys(commands.TOOL_ENTRIES)) {
      const c = commands.toolCommand(process.cwd(), tool, []);
      expect(spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(c.args[0])})`]).status, tool).toBe(0);
    }
  });
});

describe('npm', () => {
  it('runs npm-cli.js with Node when npm started the script (npm_execpath), on Windows too', () => {
    const cli = 'C:\\Program Files\\nodejs\\node_modules\\npm\\bin\\npm-cli.js';
    const c = commands.npmCommand(['rebuild', 'better-sqlite3'], { platform: 'win32', execPath: WINDOWS_NODE, env: { npm_execpath: cli }, exists: () => true });
    expect(c).toEqual({ command: WINDOWS_NODE, args: [cli, 'rebuild', 'better-sqlite3'], options: { shell: false, windowsHide: true } });
  });

  it('on Windows without npm_execpath: the npm-cli.js installed beside node.exe, never npm.cmd', () => {
    const seen: string[] = [];
    const c = commands.npmCommand(['rebuild'], {
      platform: 'win32',
      execPath: WINDOWS_NODE,
      env: {},
      exists: (p) => (seen.push(p), p === win32.join('C:\\Program Files\\nodejs', 'node_modules', 'npm', 'bin', 'npm-cli.js')),
    });
    expect(c.command).toBe(WINDOWS_NODE);
    expect(c.args[0]).toBe('C:\\Program Files\\nodejs\\node_modules\\npm\\bin\\npm-cli.js');
    expect(JSON.stringify(c)).not.toMatch(/npm\.cmd|cmd\.exe/);
  });

  it('on Windows with no npm-cli.js to be found: a plain error saying what to do, not a shell', () => {
    expect(() => commands.npmCommand(['rebuild'], { platform: 'win32', execPath: WINDOWS_NODE, env: {}, exists: () => false })).toThrow(
      /Cannot find npm's npm-cli\.js beside Node\. Run this through npm/,
    );
  });

  it('ignores an npm_execpath that is not npm-cli.js (yarn, pnpm) and one that does not exist', () => {
    expect(commands.npmCli({ platform: 'linux', execPath: '/usr/bin/node', env: { npm_execpath: '/usr/lib/yarn.js' }, exists: () => false })).toBeNull();
    expect(
      commands.npmCommand(['ci'], { platform: 'linux', execPath: '/usr/bin/node', env: { npm_execpath: '/gone/npm-cli.js' }, exists: () => false }),
    ).toEqual({
      command: 'npm',
      args: ['ci'],
      options: { shell: false, windowsHide: true },
    });
  });

  it('really starts: paths and arguments with spaces and quotes arrive whole (a stand-in npm-cli.js under "Jane Doe")', () => {
    const dir = join(tmp.dir, 'Jane Doe', 'npm "x"', 'bin');
    mkdirSync(dir, { recursive: true });
    const cli = join(dir, 'npm-cli.js');
    writeFileSync(cli, 'console.log(JSON.stringify(process.argv.slice(2)));\n');
    const c = commands.npmCommand(['rebuild', 'a b', 'c"d', '%PATH%', '&&', 'echo'], { env: { npm_execpath: cli } });
    const r = spawnSync(c.command, c.args, { ...c.options, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['rebuild', 'a b', 'c"d', '%PATH%', '&&', 'echo']);
  });
});

describe('what npm run dist hands electron-builder', () => {
  it('publishes nothing unless asked, and keeps an explicit --publish', () => {
    expect(dist.builderArgs(['--dir'], { platform: 'linux', env: {} })).toEqual(['--dir', '--publish', 'never']);
    expect(dist.builderArgs(['--publish', 'always'], { platform: 'linux', env: {} })).toEqual(['--publish', 'always']);
  });

  it('a release on macOS and Windows must be signed (forceCodeSigning); --dir and Linux are not held to it', () => {
    for (const platform of ['darwin', 'win32'] as const) expect(dist.builderArgs([], { platform, env: {} })).toContain('-c.forceCodeSigning=true');
    expect(dist.builderArgs(['--dir'], { platform: 'darwin', env: {} })).not.toContain('-c.forceCodeSigning=true');
    expect(dist.builderArgs([], { platform: 'linux', env: {} })).not.toContain('-c.forceCodeSigning=true');
    expect(dist.builderArgs([], { platform: 'win32', env: { WORKBENCH_ALLOW_UNSIGNED: '1' } })).not.toContain('-c.forceCodeSigning=true');
  });

  it("finds this run's unpacked apps' app.asar.unpacked on each platform's layout, not an older run's", () => {
    const release = join(tmp.dir, 'release');
    const linux = join(release, 'linux-unpacked', 'resources', 'app.asar.unpacked');
    const mac = join(release, 'mac-arm64', 'Outreach Workbench.app', 'Contents', 'Resources', 'app.asar.unpacked');
    for (const d of [linux, mac]) mkdirSync(d, { recursive: true });
    expect(dist.unpackedResources(release).sort()).toEqual([linux, mac].sort());
    expect(dist.unpackedResources(release, Date.now() + 60_000)).toEqual([]);
  });
});
