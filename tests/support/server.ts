/**
 * Start the real platform in-process for a test file: a fresh database on the run's PostgreSQL
 * server (tests/support/globalSetup.ts), a temporary data directory, an ephemeral port, and
 * Redis when REDIS_URL is set. Rate limits are off unless a test asks for them.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import pino from 'pino'
import { inject } from 'vitest'
import { loadConfig } from '../../server/src/config.js'
import { startServer, type RunningServer } from '../../server/src/server.js'
import { createDatabaseOn, dropDatabaseOn } from '../../server/src/db/scratch.js'
import { ApiClient } from './client.js'

export const ADMIN_PASSWORD = 'Admin#Passw0rd'

export interface TestServer extends RunningServer {
  databaseUrl: string
  dataDir: string
  /** A new HTTP client with its own cookie jar. */
  client(): ApiClient
  /** A client signed in as the bootstrap Admin. */
  admin(): Promise<ApiClient>
}

export interface TestServerOptions {
  rateLimit?: boolean
  redis?: boolean
  env?: Record<string, string>
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const serverUrl = inject('databaseServerUrl')
  const redisUrl = inject('redisUrl')
  const name = `flagwave_test_${randomBytes(5).toString('hex')}`
  const databaseUrl = await createDatabaseOn(serverUrl, name)
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-data-'))
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DISABLE_RATE_LIMIT: options.rateLimit ? 'false' : 'true',
    ...(options.redis !== false && redisUrl ? { REDIS_URL: redisUrl } : {}),
    // Each test server has its own Redis namespace: no pushes or counters leak between files.
    REDIS_PREFIX: `flagwave-test-${name}`,
    ...options.env,
  })
  const running = await startServer(config, pino({ level: config.LOG_LEVEL }))
  const server: TestServer = {
    ...running,
    databaseUrl,
    dataDir,
    client: () => new ApiClient(running.url),
    admin: async () => {
      const client = new ApiClient(running.url)
      await client.login('Admin', ADMIN_PASSWORD)
      return client
    },
    close: async () => {
      await running.close()
      await dropDatabaseOn(serverUrl, name).catch(() => undefined)
      await fs.rm(dataDir, { recursive: true, force: true })
    },
  }
  return server
}
