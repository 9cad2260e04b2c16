/**
 * Starts one embedded PostgreSQL for the whole run when DATABASE_URL is not set, so the suite
 * needs nothing installed. Each test file then creates its own database on that server.
 * Also builds the SPA (client/dist, served by the test servers) when it is missing or older
 * than its sources.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { spawnSync } from 'node:child_process'
import { existsSync, statSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import type { TestProject } from 'vitest/node'
import { startEmbeddedDatabase } from '../../server/src/db/embedded.js'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string
    redisUrl: string | null
  }
}

export default async function setup(project: TestProject) {
  await ensureClientBuild()
  let serverUrl = process.env.DATABASE_URL
  let stop: (() => Promise<void>) | undefined
  if (!serverUrl) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-test-db-'))
    await fs.chmod(dir, 0o755)
    const db = await startEmbeddedDatabase(dir, pino({ level: 'warn' }), 'postgres')
    serverUrl = db.url
    stop = async () => {
      await db.stop()
      await fs.rm(dir, { recursive: true, force: true })
    }
  }
  project.provide('databaseServerUrl', serverUrl)
  project.provide('redisUrl', process.env.REDIS_URL ?? null)
  return async () => {
    await stop?.()
  }
}

/* ---- the SPA build served by the test servers (server/src/app.ts CLIENT_DIST) ---- */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const CLIENT = path.join(ROOT, 'client')
const DIST = path.join(CLIENT, 'dist')
const CLIENT_SOURCES = ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'client/postcss.config.cjs', 'client/package.json', 'shared/src']

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)))
  return newest
}

/**
 * Build client/dist with `vite build` when it is missing or older than client/src or
 * shared/src (set FLAGWAVE_SKIP_CLIENT_BUILD=1 to skip). The build goes to a temporary
 * directory that then replaces dist, so a concurrent run never serves a half-written build.
 */
export async function ensureClientBuild(): Promise<void> {
  if (process.env.FLAGWAVE_SKIP_CLIENT_BUILD) return
  const index = path.join(DIST, 'index.html')
  const built = existsSync(index) ? statSync(index).mtimeMs : 0
  const sources = Math.max(...CLIENT_SOURCES.map((p) => newestMtime(path.join(ROOT, p))))
  if (built > 0 && built >= sources) return
  const tmp = path.join(CLIENT, `.dist-${process.pid}-${Date.now()}`)
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js')
  const started = Date.now()
  const result = spawnSync(process.execPath, [vite, 'build', '--outDir', tmp, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: CLIENT,
    // Vitest sets NODE_ENV=test; the SPA must be the production build (React's prod bundles).
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  })
  if (result.status !== 0) {
    await fs.rm(tmp, { recursive: true, force: true })
    const message = `client build failed (vite build exited with ${result.status}):\n${result.stdout}\n${result.stderr}`
    // On CI the suite must not run without its SPA; locally a half-edited client should not stop
    // the API tests: the previous build (if any) stays and the browser tests report the rest.
    if (process.env.CI) throw new Error(message)
    console.warn(`[globalSetup] ${message}\n[globalSetup] keeping the previous client/dist`)
    return
  }
  const old = path.join(CLIENT, `.dist-old-${process.pid}-${Date.now()}`)
  if (existsSync(DIST)) await fs.rename(DIST, old).catch(() => undefined)
  await fs.rename(tmp, DIST).catch(async (err: NodeJS.ErrnoException) => {
    // Another run swapped in its build first: keep that one.
    await fs.rm(tmp, { recursive: true, force: true })
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err
  })
  await fs.rm(old, { recursive: true, force: true })
  console.info(`[globalSetup] built client/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
