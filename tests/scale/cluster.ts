/**
 * Helpers of the scale tests: Flagwave nodes in child processes (tests/support/process.ts) on one
 * scratch database, seeded through a MikroORM of the test's own, clients that present a client IP
 * of their choosing (X-Forwarded-For, so rate-limit counters in a shared Redis never meet other
 * tests'), the exactly-once bookkeeping of the submission queue and the full-rebuild scoreboard.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { randomBytes, randomInt } from 'node:crypto'
import pg from 'pg'
import { expect, inject } from 'vitest'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { createDatabaseOn, dropDatabaseOn } from '../../server/src/db/scratch.js'
import { openDatabase, type Orm } from '../../server/src/db/orm.js'
import { loadGameData } from '../../server/src/domain/scoreboard/load.js'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { ApiClient, type ApiResponse } from '../support/client.js'
import { ADMIN_PASSWORD, type TestServer } from '../support/server.js'
import { startNodeProcess, type NodeProcess } from '../support/process.js'

/** An ApiClient whose every request claims to come from `ip` (nodes run with TRUST_PROXY). */
export class ForwardedClient extends ApiClient {
  constructor(
    baseUrl: string,
    readonly ip: string,
  ) {
    super(baseUrl)
  }

  override request<T = any>(method: string, target: string, options: { json?: unknown; body?: BodyInit; headers?: Record<string, string>; raw?: boolean } = {}): Promise<ApiResponse<T>> {
    return super.request<T>(method, target, { ...options, headers: { 'x-forwarded-for': this.ip, ...options.headers } })
  }

  /** The same session (cookies), talking to another node. */
  on(url: string): ForwardedClient {
    const other = new ForwardedClient(url, this.ip)
    for (const [k, v] of this.cookies) other.cookies.set(k, v)
    return other
  }
}

export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`

export interface Cluster {
  databaseUrl: string
  /** Started with `node()`; all of them are stopped by `close()`. */
  nodes: NodeProcess[]
  node(env?: Record<string, string>): Promise<NodeProcess>
  /** The ORM the factories write with (open after the first node migrated the database). */
  orm(): Promise<Orm>
  pool(): pg.Pool
  /** A stand-in for the TestServer the factories take: rows through `orm`, clients against `url`. */
  factoryServer(url: string, ip: string): Promise<TestServer>
  close(): Promise<void>
}

export async function startCluster(): Promise<Cluster> {
  const serverUrl = inject('databaseServerUrl')
  const name = `flagwave_scale_${randomBytes(5).toString('hex')}`
  const databaseUrl = await createDatabaseOn(serverUrl, name)
  const nodes: NodeProcess[] = []
  const dirs: string[] = []
  let orm: Orm | null = null
  let pool: pg.Pool | null = null
  const cluster: Cluster = {
    databaseUrl,
    nodes,
    async node(env = {}) {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-scale-'))
      dirs.push(dataDir)
      const node = await startNodeProcess({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ADMIN_PASSWORD, TRUST_PROXY: 'true', LOG_LEVEL: 'error', REDIS_PREFIX: name, ...env })
      nodes.push(node)
      return node
    },
    async orm() {
      orm ??= await openDatabase(databaseUrl)
      return orm
    },
    pool() {
      pool ??= new pg.Pool({ connectionString: databaseUrl, max: 4 })
      return pool
    },
    async factoryServer(url, ip) {
      const o = await cluster.orm()
      return { url, services: { orm: o, config: { XOR_KEY: '' } }, client: () => new ForwardedClient(url, ip) } as unknown as TestServer
    },
    async close() {
      for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) await node.kill9().catch(() => undefined)
      await pool?.end().catch(() => undefined)
      await orm?.close(true).catch(() => undefined)
      await dropDatabaseOn(serverUrl, name).catch(() => undefined)
      for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true })
    },
  }
  return cluster
}

/** Sign in as the bootstrap Admin on `url` from `ip`. */
export async function adminOn(url: string, ip: string): Promise<ForwardedClient> {
  const client = new ForwardedClient(url, ip)
  await client.login('Admin', ADMIN_PASSWORD)
  return client
}

/**
 * Move the id sequences to a random offset so that rooms and Redis keys (`flagwave:scoreboard:{id}`)
 * never collide with other test files on a shared Redis.
 */
export async function isolateSequences(pool: pg.Pool): Promise<void> {
  for (const seq of ['games_id_seq', 'participations_id_seq', 'challenges_id_seq']) await pool.query(`select setval('${seq}', $1)`, [randomInt(1_000_000, 1_000_000_000)])
}

/** Record every status change of a submission (old → new), to prove each is settled exactly once. */
export async function recordTransitions(pool: pg.Pool): Promise<void> {
  await pool.query(`create table if not exists status_transitions (submission_id int not null, old_status text, new_status text)`)
  await pool.query(`create or replace function log_status_transition() returns trigger language plpgsql as $$
    begin insert into status_transitions (submission_id, old_status, new_status) values (new.id, old.status, new.status); return new; end $$`)
  await pool.query(`drop trigger if exists submissions_status_transition on submissions`)
  await pool.query(`create trigger submissions_status_transition after update of status on submissions for each row
    when (old.status is distinct from new.status) execute function log_status_transition()`)
}

/** Wait until no submission is queued any more. */
export async function drained(pool: pg.Pool, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(`select count(*)::int as n from submissions where status = 'FlagSubmitted'`)
    if (rows[0]!.n === 0) return
    if (Date.now() > deadline) throw new Error(`${rows[0]!.n} submissions still queued after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Every submission id handed out exists and was settled exactly once (one transition, from FlagSubmitted). */
export async function expectSettledExactlyOnce(pool: pg.Pool, ids: number[]): Promise<void> {
  const { rows: present } = await pool.query<{ id: number }>('select id from submissions where id = any($1::int[])', [ids])
  expect(present.length, 'submissions that got an id but are not in the database').toBe(new Set(ids).size)
  const { rows: queued } = await pool.query<{ n: number }>(`select count(*)::int as n from submissions where status = 'FlagSubmitted'`)
  expect(queued[0]!.n).toBe(0)
  const { rows: wrong } = await pool.query(
    `select s.id, count(t.submission_id)::int as n, min(t.old_status) as old from submissions s left join status_transitions t on t.submission_id = s.id
      group by s.id having count(t.submission_id) <> 1 or min(t.old_status) <> 'FlagSubmitted'`,
  )
  expect(wrong, 'submissions not settled exactly once').toEqual([])
  const { rows: counts } = await pool.query(
    `select c.id, c.accepted_count, (select count(distinct participation_id)::int from submissions s where s.challenge_id = c.id and s.status = 'Accepted') as solvers
       from challenges c where c.accepted_count <> (select count(distinct participation_id) from submissions s where s.challenge_id = c.id and s.status = 'Accepted')`,
  )
  expect(counts, 'accepted counts').toEqual([])
}

// `updateTimeUtc` is the same time under GZ::CTF 0.18's name.
const withoutTime = ({ updateTimeUTC: _t, updateTimeUtc: _u, ...rest }: ScoreboardModel) => rest

/** Wait until `url` serves the scoreboard a full rebuild from the database computes now. */
export async function expectBoardConverges(pool: pg.Pool, url: string, gameId: number, timeoutMs = 20_000): Promise<void> {
  const client = new ApiClient(url)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const expected = withoutTime(ScoreboardState.build((await loadGameData(pool, gameId))!).snapshot(Date.now()).model)
    const res = await client.get<ScoreboardModel>(`/api/game/${gameId}/scoreboard`)
    const actual = res.status === 200 ? withoutTime(res.body) : res.body
    if (JSON.stringify(actual) === JSON.stringify(expected)) return
    if (Date.now() > deadline) {
      expect(actual).toEqual(expected)
      return
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** The backend pid holding a game's scoreboard lock (docs/scoring.md#engine-ownership), or null. */
export async function scoreboardOwnerPid(pool: pg.Pool, gameId: number): Promise<number | null> {
  const { rows } = await pool.query<{ pid: number }>(`select pid from pg_locks where locktype = 'advisory' and classid = $1 and objid = $2 and granted`, [0x46570001, gameId])
  return rows[0]?.pid ?? null
}
