/**
 * The calls a player's screens make, beside a bare Koa endpoint in the same run (docs/operations.md#benchmarks):
 * each signed in as the 110 players of the small data set in turn, gzip accepted, `wrk -t2 -c50`,
 * the median of the rounds. Wrong flags are posted the same way (every one must be settled once).
 */
import type pg from 'pg'
import type { RunningServer } from '../../server/src/server.js'
import type { BenchGame } from './data.js'
import os from 'node:os'
import { ownCpu, processCpu, rotationScript, startBareKoa, wrk, type ScriptedRequest, type WrkResult } from './wrk.js'

/** What a player's screens ask for, and how often a figure must be of bare Koa (the goals). */
const CALLS = {
  details: { goal: 0.25, label: 'GET /api/game/{id}/details (challenge board)' },
  notices: { goal: 0.25, label: 'GET /api/game/{id}/notices' },
  games: { goal: 0.25, label: 'GET /api/game' },
  game: { goal: 0.25, label: 'GET /api/game/{id}' },
  profile: { goal: 0.25, label: 'GET /api/account/profile' },
  teams: { goal: 0.25, label: 'GET /api/team' },
  challenge: { goal: 0.25, label: 'GET /api/game/{id}/challenges/{cid}' },
  status: { goal: 0.25, label: 'GET …/challenges/{cid}/status/{sid}' },
  posts: { goal: 0.25, label: 'GET /api/posts/latest' },
  submit: { goal: 0.1, label: 'POST /api/game/{id}/challenges/{cid} (wrong flags)' },
} as const
export type PlayerCall = keyof typeof CALLS
export const playerCallLabels = CALLS

async function seedReading(pool: pg.Pool, gameId: number): Promise<void> {
  await pool.query(
    `insert into notices (game_id, type, content, publish_time)
     select $1, case when i % 3 = 0 then 'Normal' else 'FirstBlood' end, 'Notice number ' || i || ': read the rules again.', now() - i * interval '1 minute'
       from generate_series(1, 30) as i`,
    [gameId],
  )
  await pool.query(
    `insert into posts (id, title, summary, content, is_pinned, tags, update_time)
     select substr(md5(i::text), 1, 8), 'Post ' || i, 'A summary of post ' || i, repeat('Body text. ', 50), i = 1, '{news}', now() - i * interval '1 hour'
       from generate_series(1, 12) as i`,
  )
}

/** Each player's requests for one call: their own session, their own submission for the status. */
async function requestsFor(call: PlayerCall, pool: pg.Pool, game: BenchGame): Promise<ScriptedRequest[]> {
  const g = game.gameId
  const cid = (i: number) => game.challengeIds[i % game.challengeIds.length]!
  if (call === 'status') {
    const { rows } = await pool.query<{ id: number; challenge_id: number; user_id: string }>(
      `select distinct on (user_id) id, challenge_id, user_id from submissions where game_id = $1 order by user_id, id`,
      [g],
    )
    const byUser = new Map(rows.map((r) => [r.user_id, r]))
    return game.teams.map((t) => {
      const s = byUser.get(t.userId)!
      return { token: t.token, path: `/api/game/${g}/challenges/${s.challenge_id}/status/${s.id}` }
    })
  }
  const paths: Record<Exclude<PlayerCall, 'status'>, (i: number) => string> = {
    details: () => `/api/game/${g}/details`,
    notices: () => `/api/game/${g}/notices`,
    games: () => '/api/game',
    game: () => `/api/game/${g}`,
    profile: () => '/api/account/profile',
    teams: () => '/api/team',
    challenge: (i) => `/api/game/${g}/challenges/${cid(i)}`,
    posts: () => '/api/posts/latest',
    submit: (i) => `/api/game/${g}/challenges/${cid(i)}`,
  }
  return game.teams.map((t, i) => ({
    token: t.token,
    path: paths[call](i),
    ...(call === 'submit' ? { method: 'POST' as const, body: '{"flag":"flag{nope}"}' } : {}),
  }))
}

/** Each player's GET twice, one at a time: the second is the one a kept answer is taken from (http/hotReads.ts). */
async function warmUp(url: string, requests: ScriptedRequest[]): Promise<void> {
  for (let pass = 0; pass < 2; pass++) {
    for (const r of requests) {
      const res = await fetch(new URL(r.path, url), { headers: { cookie: `GZCTF_Token=${r.token}`, 'accept-encoding': 'gzip' } })
      await res.arrayBuffer()
    }
  }
}

/**
 * A submission's whole cost, accept to settled: the server's CPU and that of the PostgreSQL
 * backends serving it (the pool's connections), per submission, from the start of the round until
 * the checkers settled the last one; and the rate at which the two alone would fill the machine's
 * cores — the floor under the submit figure, whatever the HTTP path costs.
 */
export interface SettledCost {
  serverUsPerSubmission: number
  postgresUsPerSubmission: number
  coresFullAtPerSec: number
}

async function submitRound(server: RunningServer, pool: pg.Pool, game: BenchGame, script: string, seconds: number, connections: number): Promise<WrkResult & { settledCost: SettledCost }> {
  // Every pooled connection open, then the backends behind them (the pool keeps them through the round).
  await Promise.all(Array.from({ length: 20 }, () => pool.query('select pg_sleep(0.02)')))
  const { rows } = await pool.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)
  const backends = rows.map((r) => processCpu(r.pid))
  const postgresCpu = () => backends.reduce((sum, read) => sum + read(), 0)
  const before = { server: ownCpu(), postgres: postgresCpu() }
  const result = await wrk(server.url, { script, seconds, connections, cpu: ownCpu })
  while ((await pool.query<{ n: number }>(`select count(*)::int as n from submissions where game_id = $1 and status = 'FlagSubmitted'`, [game.gameId])).rows[0]!.n > 0) {
    await new Promise((r) => setTimeout(r, 20))
  }
  const serverUs = (ownCpu() - before.server) / result.requests
  const postgresUs = (postgresCpu() - before.postgres) / result.requests
  const round1 = (x: number) => Math.round(x * 10) / 10
  return {
    ...result,
    settledCost: { serverUsPerSubmission: round1(serverUs), postgresUsPerSubmission: round1(postgresUs), coresFullAtPerSec: Math.round((os.cpus().length * 1e6) / (serverUs + postgresUs)) },
  }
}

export interface PlayerFigure extends WrkResult {
  ratio: number
  /** Bare Koa's CPU time per request over this call's: the ratio that a busy machine hardly moves. */
  cpuRatio: number
  goal: number
}

export async function playerCalls(
  server: RunningServer,
  pool: pg.Pool,
  game: BenchGame,
  opts: { rounds: number; seconds: number; only?: PlayerCall[]; log: (...args: unknown[]) => void },
): Promise<{ bareKoa: WrkResult; calls: Partial<Record<PlayerCall, PlayerFigure>>; rpsByRound: Record<string, number[]> }> {
  await seedReading(pool, game.gameId)
  const bare = await startBareKoa()
  const bareUrl = bare.url
  const calls = (opts.only ?? (Object.keys(CALLS) as PlayerCall[])).filter((c) => c in CALLS)
  const scripts = new Map<PlayerCall, Awaited<ReturnType<typeof rotationScript>>>()
  for (const call of calls) {
    const requests = await requestsFor(call, pool, game)
    scripts.set(call, await rotationScript(requests))
    // Steady state: what the first requests load and keep (sessions, gate rows, kept answers) is not what a running event costs.
    if (call !== 'submit') await warmUp(server.url, requests)
  }
  const runs: Record<string, WrkResult[]> = { bareKoa: [] }
  // BENCH_CONNECTIONS=1 (wrk -t1 -c1): CPU per request without queueing, for a busy machine.
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
  try {
    for (let round = 1; round <= opts.rounds; round++) {
      opts.log(`players: bare Koa, round ${round} of ${opts.rounds}…`)
      runs.bareKoa!.push(await wrk(bareUrl, { seconds: opts.seconds, connections, cpu: bare.cpu }))
      for (const call of calls) {
        opts.log(`players: ${call}, round ${round} of ${opts.rounds}…`)
        if (call === 'submit') (runs[call] ??= []).push(await submitRound(server, pool, game, scripts.get(call)!.file, opts.seconds, connections))
        else (runs[call] ??= []).push(await wrk(server.url, { script: scripts.get(call)!.file, seconds: opts.seconds, connections, cpu: ownCpu }))
      }
    }
  } finally {
    await bare.stop()
    await Promise.all([...scripts.values()].map((s) => s.remove()))
  }
  const mid = (list: WrkResult[]) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)]!
  const bareKoa = mid(runs.bareKoa!)
  const figures: Partial<Record<PlayerCall, PlayerFigure>> = {}
  for (const call of calls) {
    const r = mid(runs[call]!)
    figures[call] = {
      ...r,
      ratio: Math.round((r.rps / bareKoa.rps) * 1000) / 1000,
      cpuRatio: Math.round((bareKoa.cpuUsPerRequest! / r.cpuUsPerRequest!) * 1000) / 1000,
      goal: CALLS[call].goal,
    }
  }
  return { bareKoa, calls: figures, rpsByRound: Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v.map((r) => r.rps)])) }
}
