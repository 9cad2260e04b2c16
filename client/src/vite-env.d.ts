/// <reference types="vite/client" />

/** Injected by vite.config.ts `define` (SPEC §3 build info). */
declare const __FLAGWAVE_BUILD__: {
  sha: string
  tag: string
  timestamp: string
  buildTime: string
}
