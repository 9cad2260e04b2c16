/**
 * Starts one embedded PostgreSQL for the whole run when DATABASE_URL is not set, so the suite
 * needs nothing installed. Each test file then creates its own database on that server.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
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
