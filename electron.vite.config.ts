import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// One build config for main, preload and renderer (electron-vite; dependencies
// stay external by default and load from node_modules, except those package.json
// lists under config.bundledDependencies, which the bench bundles the same way).
const bundled: string[] = JSON.parse(readFileSync('package.json', 'utf8')).config.bundledDependencies;

export default defineConfig({
  main: {
    // Two entries: main itself, and the core process it forks (out/main/core.js).
    // zod is bundled in (pure JavaScript, about 100 module files otherwise read one by one at every
    // core start: about 40 ms on a 2-core machine); native modules and those loaded on demand stay outside.
    build: {
      externalizeDeps: { exclude: bundled },
      rollupOptions: { input: { index: resolve('electron/main/index.ts'), core: resolve('electron/core-process/index.ts') } },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        // A sandboxed preload must be a single CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    plugins: [svelte()],
    // Minified: the window parses it at every launch (about 480 kB of JavaScript unminified).
    // Main, preload and the core stay readable: verify:package reads them.
    build: { minify: true, rollupOptions: { input: { index: resolve('renderer/index.html') } } },
  },
});
