/**
 * What this PostgreSQL can do on its own, measured in the same run as the queue (docs/operations.md#benchmarks): how
 * many single-row, autocommitted inserts of a submission-shaped row it takes per second from
 * several clients — the pgbench way. `pgbench` itself when it is installed (Debian's
 * postgresql-client ships it); otherwise the same loop with node-postgres.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import { globSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

export interface InsertBaseline {
  tool: 'pgbench' | 'node-postgres'
  clients: number
  seconds: number
  insertsPerSec: number
}

const CLIENTS = 8
const TABLE = 'bench_inserts'
/** A submission as the submit endpoint stores it, into a copy of the table (its indexes, no foreign keys). */
const INSERT = `insert into ${TABLE} (game_id, challenge_id, participation_id, user_id, answer, status, submit_time)
  values (1, 1, 1, '00000000-0000-4000-8000-000000000001', 'flag{baseline}', 'FlagSubmitted', now());`

export async function insertBaseline(pool: pg.Pool, databaseUrl: string, seconds: number): Promise<InsertBaseline> {
  await pool.query(`drop table if exists ${TABLE}`)
  await pool.query(`create table ${TABLE} (like submissions including defaults including indexes)`)
  try {
    const pgbench = globSync('/usr/lib/postgresql/*/bin/pgbench').sort().at(-1)
    if (pgbench) return await withPgbench(pgbench, databaseUrl, seconds)
    return await withNodePostgres(databaseUrl, seconds)
  } finally {
    await pool.query(`drop table if exists ${TABLE}`)
  }
}

async function withPgbench(pgbench: string, databaseUrl: string, seconds: number): Promise<InsertBaseline> {
  const script = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-pgbench-')), 'insert.sql')
  await fs.writeFile(script, INSERT + '\n')
  try {
    const { stdout } = await promisify(execFile)(pgbench, ['-n', '-c', String(CLIENTS), '-j', '2', '-T', String(seconds), '-f', script, databaseUrl])
    const tps = /tps = ([\d.]+)/.exec(stdout)?.[1]
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`)
    return { tool: 'pgbench', clients: CLIENTS, seconds, insertsPerSec: Math.round(Number(tps)) }
  } finally {
    await fs.rm(path.dirname(script), { recursive: true, force: true })
  }
}

async function withNodePostgres(databaseUrl: string, seconds: number): Promise<InsertBaseline> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CLIENTS })
  try {
    const deadline = Date.now() + seconds * 1000
    let done = 0
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < deadline) {
          await pool.query(INSERT)
          done += 1
        }
      }),
    )
    return { tool: 'node-postgres', clients: CLIENTS, seconds, insertsPerSec: Math.round(done / seconds) }
  } finally {
    await pool.end()
  }
}
