/**
 * Vite configuration of the SPA.
 * - Output: client/dist, hashed assets under /static/ (the server caches /static/* immutably).
 * - Dev server: proxies the API, asset downloads, Socket.IO (path /socket.io, namespaces /hub/*)
 *   and the health probe to the platform on :8080.
 * - Build info (docs/compatibility.md#defaults-and-build-information): git sha, tag (v2.0.1 unless BUILD_TAG), commit timestamp
 *   (20 characters, YYYY-MM-DDTHH:mm:ssZ) and build time, injected as __FLAGWAVE_BUILD__.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

const clientRoot = fileURLToPath(new URL('.', import.meta.url))
const backend = process.env.FLAGWAVE_BACKEND ?? 'http://localhost:8080'

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: clientRoot, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim()
  } catch {
    return ''
  }
}

/** An ISO date truncated to whole seconds in UTC: `2023-09-29T14:51:23Z` (20 characters). */
function toUtcSeconds(value: string): string {
  const date = new Date(value)
  return value && !Number.isNaN(date.getTime()) ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : ''
}

const build = {
  sha: process.env.BUILD_SHA ?? git('rev-parse', 'HEAD'),
  tag: process.env.BUILD_TAG ?? 'v2.0.1',
  timestamp: process.env.BUILD_TIMESTAMP ?? toUtcSeconds(git('log', '-1', '--format=%cI')),
  buildTime: new Date().toISOString(),
}

export default defineConfig({
  root: clientRoot,
  base: '/',
  plugins: [react()],
  define: {
    __FLAGWAVE_BUILD__: JSON.stringify(build),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'static',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Libraries every page runs, in one chunk: dozens of small shared chunks compress worse
            // and cost requests (first page < 250 KB gzipped, docs/operations.md#benchmarks).
            { name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@tanstack|zod|i18next|zustand|dayjs|clsx)[\\/]/ },
            { name: 'floating-ui-utils', test: /node_modules[\\/]@floating-ui[\\/]utils[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: false, ws: true },
      '/assets': { target: backend, changeOrigin: false },
      '/socket.io': { target: backend, changeOrigin: false, ws: true },
      '/healthz': { target: backend, changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
  },
})
