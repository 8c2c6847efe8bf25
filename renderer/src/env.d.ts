/// <reference types="svelte" />
import type { WorkbenchApi } from '../../shared/contract';

declare global {
  interface Window {
    workbench: WorkbenchApi;
  }
}
