/// <reference types="vite/client" />

/** Injected by vite.config.ts `define` (docs/compatibility.md#defaults-and-build-information build info). */
declare const __FLAGWAVE_BUILD__: {
  sha: string
  tag: string
  timestamp: string
  buildTime: string
}
