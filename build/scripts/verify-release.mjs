// What electron-builder.yml and package.json promise for each platform's installers, checked without
// building them: the .deb's effective dependencies, file names without spaces, a maintainer with an
// e-mail, a 1024 px icon, macOS built for both architectures, signed, notarized and hardened with
// entitlements the native modules load under, the update feed, and Linux's recommended artifact.
// Each check takes the Context of verify-package.mjs and returns its problems in plain words.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** What the app adds to electron-builder's own .deb dependencies: keytar needs the Secret Service's client library. */
export const APP_DEB_DEPENDS = Object.freeze(['libsecret-1-0']);

/** electron-builder's own dependencies for a .deb (what a `depends` list would replace), read from app-builder-lib itself. */
export function defaultDebDepends() {
  const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget.js');
  return FpmTarget.prototype.getDefaultDepends.call(null, 'deb');
}

/** The .deb's dependencies as electron-builder will write them: `deb.depends` when set (it replaces the defaults), else its defaults. */
export function effectiveDebDepends(builder) {
  const own = builder.deb?.depends;
  if (own === undefined || own === null) return defaultDebDepends();
  return Array.isArray(own) ? own : [own];
}

/** @param {import('./verify-package.mjs').Context} ctx */
export function checkDebDepends(ctx) {
  const effective = effectiveDebDepends(ctx.builder);
  const missing = [...defaultDebDepends(), ...APP_DEB_DEPENDS].filter((d) => !effective.includes(d));
  return missing.length
    ? [`the .deb would not depend on ${missing.join(', ')}: a deb.depends list replaces electron-builder's own, so keep its defaults in it (or leave it unset)`]
    : [];
}

/** The value of electron-builder's file-name macros for this project (the ones that can hold a space). */
function expandName(template, ctx) {
  return template
    .replaceAll('${productName}', ctx.builder.productName ?? ctx.pkg.productName ?? ctx.pkg.name)
    .replaceAll('${name}', ctx.pkg.name)
    .replaceAll('${version}', ctx.pkg.version);
}

/** Every artifact name and the executable name hold no space (the update feed names the files; GitHub renames a file with one). @param {import('./verify-package.mjs').Context} ctx */
export function checkArtifactNames(ctx) {
  const problems = [];
  const named = [['artifactName', ctx.builder.artifactName]];
  for (const section of ['linux', 'mac', 'win', 'nsis', 'dmg', 'deb', 'appImage']) named.push([`${section}.artifactName`, ctx.builder[section]?.artifactName]);
  if (typeof ctx.builder.artifactName !== 'string')
    problems.push('artifactName is not set: electron-builder names files after the product name, with its spaces');
  for (const [where, template] of named) {
    if (typeof template === 'string' && /\s/.test(expandName(template, ctx))) problems.push(`${where} "${template}" makes a file name with a space`);
  }
  const exe = ctx.builder.executableName;
  if (typeof exe !== 'string' || /\s/.test(exe)) problems.push(`executableName ${JSON.stringify(exe)} must be set and hold no space`);
  return problems;
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** package.json's author and the Linux maintainer carry a name and an e-mail (a .deb's Maintainer field needs both). @param {import('./verify-package.mjs').Context} ctx */
export function checkAuthor(ctx) {
  const problems = [];
  const author = ctx.pkg.author;
  const name = typeof author === 'string' ? author.replace(/<.*$/, '').trim() : author?.name;
  const email = typeof author === 'string' ? /<([^>]+)>/.exec(author)?.[1] : author?.email;
  if (!name) problems.push('package.json has no author name');
  if (!email || !EMAIL.test(email)) problems.push(`package.json's author has no usable e-mail (${JSON.stringify(email)}): the .deb and the installers name it`);
  const maintainer = ctx.builder.linux?.maintainer;
  const maintainerEmail = typeof maintainer === 'string' ? /<([^>]+)>\s*$/.exec(maintainer)?.[1] : undefined;
  if (!maintainerEmail || !EMAIL.test(maintainerEmail)) problems.push(`linux.maintainer ${JSON.stringify(maintainer)} is not "Name <e-mail>"`);
  return problems;
}

/** A PNG's width and height from its IHDR chunk, or null when the bytes are not a PNG. @param {Buffer} bytes */
export function pngSize(bytes) {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Every platform's icon is a square PNG of at least 1024 px (macOS's largest; the others are made from it). @param {import('./verify-package.mjs').Context} ctx */
export function checkIcons(ctx) {
  const icons = new Set(['linux', 'mac', 'win'].map((s) => ctx.builder[s]?.icon).filter((i) => typeof i === 'string'));
  if (icons.size === 0) return ['no platform names an icon'];
  return [...icons].flatMap((icon) => {
    const path = join(ctx.root, icon);
    const size = existsSync(path) ? pngSize(readFileSync(path)) : null;
    if (!size) return [`${icon} is not a PNG`];
    if (size.width < 1024 || size.height !== size.width) return [`${icon} is ${size.width}x${size.height}; macOS needs a square icon of at least 1024 px`];
    return [];
  });
}

/** @param {unknown} target @returns {{ target: string, arch: string[] }[]} */
function targetsOf(target) {
  const list = Array.isArray(target) ? target : target === undefined ? [] : [target];
  return list.map((t) => (typeof t === 'string' ? { target: t, arch: [] } : { target: t.target, arch: [t.arch ?? []].flat() }));
}

/**
 * macOS: a dmg for Intel and Apple silicon (or universal), the zip the updater installs from, the
 * hardened runtime with entitlements that allow V8's JIT and no escape hatch, notarized, and every
 * .node file signed (none ignored). @param {import('./verify-package.mjs').Context} ctx
 */
export function checkMac(ctx) {
  const mac = ctx.builder.mac ?? {};
  const problems = [];
  const targets = targetsOf(mac.target);
  for (const kind of ['dmg', 'zip']) {
    const t = targets.find((x) => x.target === kind);
    if (!t) problems.push(`mac.target has no ${kind}${kind === 'zip' ? ' (electron-updater installs from it)' : ''}`);
    else if (!t.arch.includes('universal') && !(t.arch.includes('x64') && t.arch.includes('arm64')))
      problems.push(`mac ${kind} is built for ${t.arch.join(', ') || 'this machine only'}: build x64 and arm64 (or universal)`);
  }
  if (mac.hardenedRuntime !== true) problems.push('mac.hardenedRuntime is not true: notarization requires it');
  if (mac.notarize !== true) problems.push('mac.notarize is not true: an app that is not notarized is refused by Gatekeeper');
  for (const key of ['entitlements', 'entitlementsInherit']) {
    const file = mac[key];
    const path = typeof file === 'string' ? join(ctx.root, file) : null;
    if (!path || !existsSync(path)) {
      problems.push(`mac.${key} names no file`);
      continue;
    }
    const granted = [...readFileSync(path, 'utf8').matchAll(/<key>([^<]+)<\/key>\s*<true\s*\/>/g)].map((m) => m[1]);
    if (!granted.includes('com.apple.security.cs.allow-jit')) problems.push(`${file} does not allow JIT: V8 cannot run under the hardened runtime`);
    for (const hatch of ['com.apple.security.cs.disable-library-validation', 'com.apple.security.cs.allow-dyld-environment-variables']) {
      if (granted.includes(hatch)) problems.push(`${file} grants ${hatch}: the native modules load as signed files without it`);
    }
  }
  const ignored = [mac.signIgnore ?? []].flat();
  for (const pattern of ignored) {
    if (['better_sqlite3.node', 'keytar.node'].some((f) => new RegExp(pattern).test(`node_modules/x/build/Release/${f}`)))
      problems.push(`mac.signIgnore "${pattern}" leaves a native module unsigned: it would not load under library validation`);
  }
  return problems;
}

/**
 * Updates: a publish provider electron-updater can read (GitHub releases, or a generic feed URL), and
 * the installers it can update (nsis, AppImage/deb, the mac zip). @param {import('./verify-package.mjs').Context} ctx
 */
export function checkPublish(ctx) {
  const publish = [ctx.builder.publish ?? []].flat();
  if (publish.length === 0) return ['publish is not set: electron-builder writes no update feed (latest*.yml) and the app cannot update'];
  return publish.flatMap((p) => {
    if (p?.provider === 'github') return p.owner && p.repo ? [] : ['publish: a GitHub provider needs owner and repo'];
    if (p?.provider === 'generic')
      return typeof p.url === 'string' && p.url.startsWith('https://') ? [] : ['publish: a generic provider needs an https:// url'];
    return [`publish: provider ${JSON.stringify(p?.provider)} is not one the README documents (github, generic)`];
  });
}

/** The beforePack hook that rebuilds the native modules for each CPU (build/scripts/before-pack.mjs). */
export const REBUILD_HOOK = './build/scripts/before-pack.mjs';

/**
 * Linux: the .deb (whose install script sets up the sandbox) comes first. The native modules are
 * rebuilt by the beforePack hook for each CPU before it is packed, not by electron-builder's own
 * rebuild, and the CPUs are packed one after the other (each rebuild replaces the one before).
 * @param {import('./verify-package.mjs').Context} ctx
 */
export function checkLinuxAndRebuild(ctx) {
  const problems = [];
  const targets = targetsOf(ctx.builder.linux?.target).map((t) => t.target);
  if (targets[0] !== 'deb') problems.push(`linux.target starts with ${JSON.stringify(targets[0])}: the .deb is the recommended Linux download`);
  if (ctx.builder.npmRebuild !== false)
    problems.push(
      "npmRebuild is not false: electron-builder's rebuild skips a module whose stale marker says it is built; the beforePack hook rebuilds instead",
    );
  if (ctx.builder.beforePack !== REBUILD_HOOK)
    problems.push(
      `beforePack is ${JSON.stringify(ctx.builder.beforePack ?? null)}, not ${REBUILD_HOOK}: each CPU's app (macOS x64 and arm64) would get the native modules of whatever node_modules holds`,
    );
  const jobs = ctx.builder.concurrency?.jobs;
  if (jobs !== undefined && jobs > 1)
    problems.push(`concurrency.jobs is ${jobs}: CPUs packed side by side would copy each other's native modules while they are rebuilt`);
  return problems;
}

export const RELEASE_CHECKS = Object.freeze([
  { name: ".deb: electron-builder's own dependencies kept, plus libsecret-1-0", run: checkDebDepends },
  { name: 'file names: artifacts and the executable without spaces', run: checkArtifactNames },
  { name: 'author and maintainer: a name and an e-mail', run: checkAuthor },
  { name: 'icon: a square PNG of at least 1024 px', run: checkIcons },
  { name: 'macOS: x64 and arm64, dmg and zip, hardened, notarized, entitlements for the native modules', run: checkMac },
  { name: 'updates: a publish provider (GitHub releases or a generic feed)', run: checkPublish },
  { name: "Linux: the .deb first; native modules rebuilt for each CPU before it is packed (electron-builder's own rebuild off)", run: checkLinuxAndRebuild },
]);
