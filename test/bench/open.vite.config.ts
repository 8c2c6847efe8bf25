// The open bench (open.ts) built by the app's own bundler with the main build's
// options (electron.vite.config.ts): the same tree-shaking, the same
// dependencies kept outside, and each dynamic import() its own chunk beside
// the entry, as in out/main. run.ts builds it with `electron-vite build -c`.
import { resolve } from 'node:path';
import app from '../../electron.vite.config';

const main = (app as { main: { build: { rollupOptions: Record<string, unknown> } } }).main;

export default {
  main: {
    ...main,
    build: { ...main.build, rollupOptions: { ...main.build.rollupOptions, input: { open: resolve('test/bench/open.ts') } } },
  },
};
