#!/usr/bin/env node
// The `workbench` bin: runs the TypeScript CLI directly (no build step) through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./index.ts');
