// Lint, including DESIGN.md's table of rooms: who may import whom.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'http', 'https', 'net', 'child_process', 'crypto', 'url', 'util', 'stream', 'worker_threads', 'events'];
const room = (message, ...groups) => ({ group: groups, message });

// One entry per room: the imports it must not make.
const rooms = {
  'shared/**': {
    paths: [{ name: 'electron', message: 'shared/ holds no environment-specific code (DESIGN.md, rooms).' }],
    patterns: [
      room('shared/ may not use Node built-ins (DESIGN.md, rooms).', ...nodeBuiltins),
      room(
        'shared/ may import only shared/ (DESIGN.md, rooms).',
        '**/electron/**',
        '**/renderer/**',
        '**/test/**',
        'better-sqlite3',
        'keytar',
        'svelte',
        'svelte/*',
      ),
    ],
  },
  'electron/core/**': {
    paths: [{ name: 'electron', message: 'core is plain Node: no electron import (DESIGN.md, rooms).' }],
    patterns: [
      room(
        'core may import shared/, Node and npm packages only (DESIGN.md, rooms).',
        '**/main/**',
        '**/preload/**',
        '**/cli/**',
        '**/renderer/**',
        '**/test/**',
      ),
    ],
  },
  'electron/simulator/**': {
    paths: [{ name: 'electron', message: 'the simulator is plain Node: no electron import (DESIGN.md, rooms).' }],
    patterns: [
      room(
        'the simulator may import shared/ and Node only (DESIGN.md, rooms).',
        '**/core/**',
        '**/main/**',
        '**/core-process/**',
        '**/preload/**',
        '**/cli/**',
        '**/renderer/**',
        '**/test/**',
        'better-sqlite3',
        'keytar',
      ),
    ],
  },
  'electron/main/**': {
    // Main talks to the engine only through the core process's protocol (shared/core-link.ts).
    patterns: [
      room(
        'main may import shared/ and electron; the engine lives in the core process (DESIGN.md, rooms; main never imports test/).',
        '**/core/**',
        '**/simulator/**',
        '**/core-process/**',
        '**/preload/**',
        '**/cli/**',
        '**/renderer/**',
        '**/test/**',
        'better-sqlite3',
        'keytar',
      ),
    ],
  },
  'electron/core-process/**': {
    // The log file's writer is shared with main (plain Node, no electron).
    patterns: [
      room(
        'the core process entry wires core to Electron: shared/, core, electron and main/log only (DESIGN.md, processes).',
        '**/main/**',
        '!**/main/log',
        '**/simulator/**',
        '**/preload/**',
        '**/cli/**',
        '**/renderer/**',
        '**/test/**',
      ),
    ],
  },
  'electron/preload/**': {
    patterns: [
      room(
        'preload may import shared/ (types) and electron only (DESIGN.md, rooms).',
        '**/core/**',
        '**/main/**',
        '**/cli/**',
        '**/renderer/**',
        '**/test/**',
        'better-sqlite3',
        'keytar',
      ),
      room('preload exposes no Node to the page (DESIGN.md, rooms).', ...nodeBuiltins),
      // A sandboxed preload can load no npm package at run time: types only from the contract.
      {
        group: ['zod', '**/shared/contract', '**/shared/api/*'],
        allowTypeImports: true,
        message: 'a sandboxed preload can load no npm package: import types only, names from shared/contract-names (DESIGN.md, rooms).',
      },
    ],
  },
  'electron/cli/**': {
    paths: [{ name: 'electron', message: 'the CLI runs in plain Node: no electron import (DESIGN.md, rooms).' }],
    patterns: [room('the CLI may import shared/ and core only (DESIGN.md, rooms).', '**/main/**', '**/preload/**', '**/renderer/**', '**/test/**')],
  },
  'renderer/**': {
    paths: [{ name: 'electron', message: 'the renderer talks only to window.workbench (DESIGN.md, rooms).' }],
    patterns: [
      room('the renderer may import shared/ only (DESIGN.md, rooms).', '**/electron/**', '**/test/**', 'better-sqlite3', 'keytar'),
      room('the renderer has no Node (DESIGN.md, rooms).', ...nodeBuiltins),
    ],
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'coverage/', 'test-results/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
    },
    rules: {
      // API text is untrusted: never render it as markup.
      'svelte/no-at-html-tags': 'error',
      // State classes replace Sets and lists wholesale in $state.raw (DESIGN.md, renderer), never mutate them in place.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  {
    files: ['renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...Object.entries(rooms).map(([dir, rule]) => ({
    files: [`${dir}/*.ts`, `${dir}/*.svelte`, `${dir}/*.js`, `${dir}/*.mjs`],
    rules: { 'no-restricted-imports': ['error', rule] },
  })),
  {
    files: ['test/host/shim.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read untyped JSON from the wire; `any` there keeps assertions readable.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'localStorage', 'process', 'Buffer', 'require'],
    },
  },
);
