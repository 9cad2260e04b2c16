/**
 * A throw-away database on the configured server (DATABASE_URL) or on an embedded one under
 * a temporary directory: used by the migration generator and by the test-suite.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { Logger } from 'pino'
import { startEmbeddedDatabase } from './embedded.js'

export interface ScratchDatabase {
  url: string
  drop(): Promise<void>
}

export async function createDatabaseOn(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE "${name}"`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** How long a drop waits for the database's clients to finish disconnecting before forcing them out. */
const DISCONNECT_GRACE_MS = 5_000

export async function dropDatabaseOn(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    // A pool's end() resolves before its clients' sockets close; terminating a client that is
    // still closing makes it emit an unhandled 'error' in its own process. Forcing is for the
    // connections of killed processes, which never close on their own.
    const deadline = Date.now() + DISCONNECT_GRACE_MS
    while (Date.now() < deadline) {
      const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])
      if (rows[0]!.n === 0) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  } finally {
    await admin.end()
  }
}

export async function scratchDatabase(log: Logger): Promise<ScratchDatabase> {
  const name = `flagwave_scratch_${randomBytes(4).toString('hex')}`
  if (process.env.DATABASE_URL) {
    const server = process.env.DATABASE_URL
    const url = await createDatabaseOn(server, name)
    return { url, drop: () => dropDatabaseOn(server, name) }
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-scratch-'))
  await fs.chmod(dir, 0o755)
  const embedded = await startEmbeddedDatabase(dir, log, name)
  return {
    url: embedded.url,
    drop: async () => {
      await embedded.stop()
      await fs.rm(dir, { recursive: true, force: true })
    },
  }
}
