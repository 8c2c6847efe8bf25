// What packaging and the build promise: the sandboxed preload loads nothing
// but electron, native modules stay outside the asar, the security fuses are set.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

describe('the build', () => {
  it('the preload is one CommonJS file that requires only electron (a sandboxed preload can load nothing else)', () => {
    execFileSync('node_modules/.bin/electron-vite', ['build'], { stdio: 'ignore', timeout: 120_000 });
    const preload = readFileSync('out/preload/index.cjs', 'utf8');
    const requires = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(requires).toEqual(['electron']);
    expect(preload).toContain('exposeInMainWorld("workbench"');
    expect(preload).not.toMatch(/process\.env|ipcRenderer\b(?!\.(invoke|on|removeListener))/);
    const html = readFileSync('out/renderer/index.html', 'utf8');
    expect(html).not.toMatch(/<script>(?!<\/script>)/); // no inline scripts
  }, 180_000);
});

describe('electron-builder.yml', () => {
  const yml = readFileSync('electron-builder.yml', 'utf8');
  it.each([
    ['runAsNode: false'],
    ['enableNodeOptionsEnvironmentVariable: false'],
    ['enableNodeCliInspectArguments: false'],
    ['enableCookieEncryption: true'],
    ['enableEmbeddedAsarIntegrityValidation: true'],
    ['onlyLoadAppFromAsar: true'],
    ['"**/node_modules/better-sqlite3/**"'],
    ['"**/node_modules/keytar/**"'],
    ['hardenedRuntime: true'],
    ['entitlements: build/entitlements.mac.plist'],
    ['- AppImage'],
    ['- deb'],
    ['target: nsis'],
    ['target: dmg'],
  ])('has %s', (line) => {
    expect(yml).toContain(line);
  });
  it('entitlements grant no library-validation or dyld escape hatches', () => {
    const plist = readFileSync('build/entitlements.mac.plist', 'utf8');
    expect(plist).toContain('com.apple.security.cs.allow-jit');
    expect(plist).not.toContain('<key>com.apple.security.cs.disable-library-validation</key>');
    expect(plist).not.toContain('<key>com.apple.security.cs.allow-dyld-environment-variables</key>');
  });
});
