/**
 * The embedded PostgreSQL listens on 127.0.0.1, which every local user and every process on the
 * machine can reach. It used to accept the fixed password `flagwave`; now each data directory gets
 * a random password in DATA_DIR/db.password (mode 600), and a directory made by the old code is
 * upgraded on its next boot: started with the old password, rotated with ALTER USER, stored — its
 * data kept. A rotation cut short after ALTER USER is finished from db.password.next.
 *
 * The attack is the obvious one: connect to the embedded server's port with the well-known password.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import pg from 'pg'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEGACY_PASSWORD, PASSWORD_FILE, startEmbeddedDatabase, type EmbeddedDatabase } from '../../server/src/db/embedded.js'

const log = pino({ level: 'silent' })
let dataDir: string
let running: EmbeddedDatabase | null = null

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}

async function acceptsPassword(url: string, password: string): Promise<boolean> {
  const { port } = new URL(url)
  const client = new pg.Client({ host: '127.0.0.1', port: Number(port), user: 'postgres', password, database: 'postgres' })
  client.on('error', () => undefined)
  try {
    await client.connect()
    return true
  } catch (err) {
    expect(String(err)).toMatch(/password authentication failed/)
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

async function storedPassword(): Promise<{ password: string; mode: number }> {
  const file = path.join(dataDir, PASSWORD_FILE)
  const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)])
  return { password: text.trim(), mode: stat.mode & 0o777 }
}

async function restart(): Promise<EmbeddedDatabase> {
  await running?.stop()
  running = await startEmbeddedDatabase(dataDir, log, 'probe')
  return running
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-embedded-'))
  // When the tests run as root, PostgreSQL runs as its own user and must reach the directory.
  await fs.chmod(dataDir, 0o755)
})
afterAll(async () => {
  await running?.stop()
  await fs.rm(dataDir, { recursive: true, force: true })
})

describe('the embedded PostgreSQL password', { timeout: 180_000 }, () => {
  it('is random per data directory, stored with mode 600, and the well-known one is refused', async () => {
    const db = await restart()
    const { password, mode } = await storedPassword()
    expect(mode).toBe(0o600)
    expect(password).toMatch(/^[0-9a-f]{48}$/)
    expect(db.url).toContain(encodeURIComponent(password))
    expect(await acceptsPassword(db.url, password)).toBe(true)
    expect(await acceptsPassword(db.url, LEGACY_PASSWORD)).toBe(false)
    await query(db.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES (\'survives\')')
  })

  it('survives a restart with the stored password', async () => {
    const before = await storedPassword()
    const db = await restart()
    expect((await storedPassword()).password).toBe(before.password)
    expect(await query(db.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }])
  })

  it('upgrades a data directory of the old code: rotates the fixed password away and keeps the data', async () => {
    // What the old code left behind: the fixed password and no db.password.
    await query(running!.url, `ALTER USER postgres WITH PASSWORD '${LEGACY_PASSWORD}'`)
    await fs.rm(path.join(dataDir, PASSWORD_FILE))
    const db = await restart()
    const { password, mode } = await storedPassword()
    expect(mode).toBe(0o600)
    expect(password).not.toBe(LEGACY_PASSWORD)
    expect(await acceptsPassword(db.url, LEGACY_PASSWORD)).toBe(false)
    expect(await acceptsPassword(db.url, password)).toBe(true)
    expect(await query(db.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }])
    await expect(fs.stat(path.join(dataDir, `${PASSWORD_FILE}.next`))).rejects.toThrow()
  })

  it('finishes a rotation that stopped after ALTER USER, before db.password was written', async () => {
    const next = 'ab'.repeat(24)
    await query(running!.url, `ALTER USER postgres WITH PASSWORD '${next}'`)
    await fs.rm(path.join(dataDir, PASSWORD_FILE))
    await fs.writeFile(path.join(dataDir, `${PASSWORD_FILE}.next`), `${next}\n`, { mode: 0o600 })
    const db = await restart()
    expect((await storedPassword()).password).toBe(next)
    expect(await query(db.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }])
  })
})
