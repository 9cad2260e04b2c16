/**
 * `npm run bench` — the figures of docs/operations.md#benchmarks on this machine (not part of `npm test`):
 *
 * 1. scoreboard GET throughput (small data set) beside a bare Koa endpoint, with `wrk -t2 -c50`;
 * 2. full rebuild of the large data set (1,000 teams × 100 challenges × 200,000 submissions),
 *    and the cost of one incremental solve on that state; replay seeks on such a set (tests/bench/replay.ts);
 * 3. settled submissions per second through the durable queue, with none lost (a trigger counts
 *    status transitions), plus the HTTP submit rate;
 * 4. solve-to-screen latency (submit → first pushed board containing the solve) on many watching sockets;
 * 5. container start and destroy, one at a time and 50 at once, beside plain `docker run`;
 * 6. an opening (an admin enabling a challenge) while many sockets watch a large board: the PUT and
 *    the time until every socket holds the new board version, as a difference adding the column
 *    beside the announcement read over REST and the whole board pushed to each socket, in turn on one game;
 * each beside its baseline measured in the same run (bare Koa, pgbench-style inserts, docker run, whole-board push).
 *
 * Environment: DATABASE_URL (a PostgreSQL server; a scratch database is created on it, else an
 * embedded server is started), REDIS_URL (optional, used like production), BENCH_SOCKETS (5000),
 * BENCH_RATE (200 solves/s), BENCH_SECONDS (10), BENCH_WRK_SECONDS (10; scoreboard reads run half of it per
 * round), BENCH_READ_ROUNDS (3), BENCH_QUEUE (20000),
 * BENCH_LATENCY (solve-to-screen runs `via:rate:sockets[:nodes],…`, default `queue:200:1000,queue:200:5000,http:50:100`
 * and, with REDIS_URL, `queue:200:5000:2`: half the sockets on a second node),
 * BENCH_ONLY (sections read, outside, players, rebuild, replay, queue, latency, opening, containers; e.g. `queue,latency`: run some sections and print JSON without writing results.json),
 * BENCH_DIVISIONS (0; n splits the small and large sets' teams over n divisions, tests/bench/data.ts),
 * BENCH_READ_SET (small; `large` measures the scoreboard reads on the large set's board),
 * BENCH_OPENING (`teams:challenges:sockets:rounds`, default `250:16:1000:3`, `npm run simulate`'s event: the opening section's board, watchers and openings per way),
 * BENCH_PROFILE (a directory: CPU profiles of the server during each latency run),
 * BENCH_DUMP (a file: each measured solve's send time and solve-to-push latency, of the last latency run),
 * DOCKER_HOST (the engine of section 5, skipped when none answers).
 * Writes tests/bench/results.json, tests/bench/results.md and the README's bench table, and prints
 * the table (tests/bench/report.ts); under BENCH_ONLY it prints the JSON only.
 */
import { fork, execFileSync } from 'node:child_process'
import fs from 'node:fs/promises'
import { existsSync } from 'node:fs'
import os from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import type pg from 'pg'
import { loadConfig } from '../../server/src/config.js'
import { startServer, type RunningServer } from '../../server/src/server.js'
import { createDatabaseOn, dropDatabaseOn, scratchDatabase } from '../../server/src/db/scratch.js'
import { nativePool } from '../../server/src/db/pg.js'
import { loadGameData } from '../../server/src/domain/scoreboard/load.js'
import { replaySeeks } from './replay.js'
import { outsideRead } from './outside.js'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { NAMESPACES, rooms, type ScoreboardUpdate } from '@flagwave/shared/events'
import { insertBaseline } from './baselines.js'
import { playerCalls, type PlayerCall } from './players.js'
import { WRK, ownCpu, rotationScript, startBareKoa, wrk, type WrkResult } from './wrk.js'
import { benchContainers } from './containers.js'
import { cpuWindow } from './cpu.js'
import { markdownTable, updateReadme } from './report.js'
import { dockerAvailable } from '../support/docker.js'
import { startNodeProcess } from '../support/process.js'
import { createBenchChallenges, createBenchGame, createBenchInstances, createBenchTeams, largeDataSet, recount, smallDataSet, type BenchTeam } from './data.js'
import { ApiClient } from '../support/client.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const SOCKETS = env('BENCH_SOCKETS', 5000)
const RATE = env('BENCH_RATE', 200)
const SECONDS = env('BENCH_SECONDS', 10)
const WRK_SECONDS = env('BENCH_WRK_SECONDS', 10)
/** Scoreboard reads: rounds of every variant, each run this long. */
const READ_ROUNDS = env('BENCH_READ_ROUNDS', 3)
const READ_SECONDS = Math.max(2, Math.round(WRK_SECONDS / 2))
const QUEUE = env('BENCH_QUEUE', 20000)
/**
 * Solve-to-screen runs, `via:solves per second:sockets[:nodes]` (via `queue` = inserted like the submit endpoint does,
 * `http` = POSTed; `nodes` 2 = half the sockets on a second node, the fan-out spread over two processes through Redis).
 */
const LATENCY_RUNS =
  process.env.BENCH_LATENCY ?? `queue:${RATE}:1000,queue:${RATE}:${SOCKETS},http:50:100${process.env.REDIS_URL ? `,queue:${RATE}:${SOCKETS}:2` : ''}`

const log = (...args: unknown[]) => console.error('[bench]', ...args)
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6
/** Wall-clock milliseconds comparable across processes (the load processes use the same). */
const now = () => performance.timeOrigin + performance.now()
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const percentile = (sorted: Float64Array | number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/* ---------------------------------------------------------------- helpers */

async function count(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<number> {
  return Number((await pool.query<{ n: string }>(sql, params)).rows[0]!.n)
}

async function until(fn: () => Promise<boolean>, timeoutMs: number, every = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await fn()) return true
    await sleep(every)
  }
  return false
}

function child(): ReturnType<typeof fork> {
  return fork(path.join(HERE, 'load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
}

const nextMessage = <T>(proc: ReturnType<typeof fork>, type: string, timeoutMs = 120_000) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} from load process`)), timeoutMs)
    const onMessage = (m: any) => {
      if (m.type === 'error') {
        clearTimeout(timer)
        proc.off('message', onMessage)
        reject(new Error(m.error))
      } else if (m.type === type) {
        clearTimeout(timer)
        proc.off('message', onMessage)
        resolve(m as T)
      }
    }
    proc.on('message', onMessage)
  })

/* ---------------------------------------------------------------- 1. scoreboard reads */

async function readThroughput(server: RunningServer, pool: pg.Pool) {
  // BENCH_READ_SET=large reads the large set's board instead (with BENCH_DIVISIONS: the divisions' cost at scale).
  const large = process.env.BENCH_READ_SET === 'large'
  log(`${large ? 'large' : 'small'} data set…`)
  const small = large ? await largeDataSet(pool) : await smallDataSet(pool)
  await server.services.scoreboard.rebuild(small.gameId)
  const snapshot = (await server.services.scoreboard.snapshot(small.gameId))!
  const gz = await snapshot.gzipped()
  // The bare endpoint of docs/operations.md#benchmarks, and beside it bare Koa handing out the very same bytes: the
  // difference between the two is the cost of moving the board, the rest is the platform's.
  const bare = await startBareKoa({ json: snapshot.json, gzip: gz })
  const bareUrl = bare.url
  const url = `${server.url}/api/game/${small.gameId}/scoreboard`
  // Rounds of every variant in turn, each figure the median of its rounds: the machine's speed drifts
  // over a minute (other tenants, heap growth), and a baseline measured once at the start would
  // carry that drift into every ratio.
  const cpu = { cpu: ownCpu }
  const bareCpu = { cpu: bare.cpu }
  const variants = {
    bareKoa: () => wrk(bareUrl, { seconds: READ_SECONDS, ...bareCpu }),
    bareKoaSameJson: () => wrk(`${bareUrl}json`, { seconds: READ_SECONDS, ...bareCpu }),
    bareKoaSameGzip: () => wrk(`${bareUrl}gzip`, { seconds: READ_SECONDS, ...bareCpu }),
    healthz: () => wrk(`${server.url}/healthz`, { seconds: READ_SECONDS, ...cpu }),
    scoreboard: () => wrk(url, { seconds: READ_SECONDS, ...cpu }),
    scoreboardGzip: () => wrk(url, { headers: { 'Accept-Encoding': 'gzip' }, seconds: READ_SECONDS, ...cpu }),
    scoreboard304: () => wrk(url, { headers: { 'If-None-Match': snapshot.etag }, seconds: READ_SECONDS, ...cpu }),
  }
  const runs = Object.fromEntries(Object.keys(variants).map((k) => [k, [] as WrkResult[]])) as Record<keyof typeof variants, WrkResult[]>
  for (let round = 1; round <= READ_ROUNDS; round++) {
    for (const [name, run] of Object.entries(variants) as [keyof typeof variants, () => Promise<WrkResult>][]) {
      log(`wrk: ${name}, round ${round} of ${READ_ROUNDS}…`)
      runs[name].push(await run())
    }
  }
  await bare.stop()
  const mid = (name: keyof typeof variants) => [...runs[name]].sort((a, b) => a.rps - b.rps)[Math.floor(READ_ROUNDS / 2)]!
  const bareResult = mid('bareKoa')
  const bareJson = mid('bareKoaSameJson')
  const bareGzip = mid('bareKoaSameGzip')
  const health = mid('healthz')
  const plain = mid('scoreboard')
  const gzipped = mid('scoreboardGzip')
  const revalidate = mid('scoreboard304')
  return {
    data: { set: large ? 'large' : 'small', teams: small.teams.length, challenges: small.challengeIds.length, solves: snapshot.model.items.reduce((n, item) => n + item.solvedChallenges.length, 0), jsonBytes: Buffer.byteLength(snapshot.json), gzipBytes: gz.length },
    bareKoa: bareResult,
    bareKoaSameJson: bareJson,
    bareKoaSameGzip: bareGzip,
    healthz: health,
    scoreboard: plain,
    scoreboardGzip: gzipped,
    scoreboard304: revalidate,
    ratio: round(plain.rps / bareResult.rps, 3),
    ratioGzip: round(gzipped.rps / bareResult.rps, 3),
    ratio304: round(revalidate.rps / bareResult.rps, 3),
    ratioToSameBytes: round(plain.rps / bareJson.rps, 3),
    ratioGzipToSameBytes: round(gzipped.rps / bareGzip.rps, 3),
    // The same comparison by CPU time per request, which a busy machine hardly moves.
    cpuRatioGzipToSameBytes: round(bareGzip.cpuUsPerRequest! / gzipped.cpuUsPerRequest!, 3),
    rounds: READ_ROUNDS,
    rpsByRound: Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, list.map((r) => r.rps)])),
  }
}

/* ---------------------------------------------------------------- 2. rebuild */

async function rebuild(server: RunningServer, pool: pg.Pool) {
  log('large data set (1,000 × 100 × 200,000)…')
  let t = process.hrtime.bigint()
  const large = await largeDataSet(pool)
  const insertMs = ms(t)
  const loads: number[] = []
  const builds: number[] = []
  const snaps: number[] = []
  let json = ''
  let solves = 0
  for (let i = 0; i < 5; i++) {
    t = process.hrtime.bigint()
    const data = (await loadGameData(pool, large.gameId))!
    loads.push(ms(t))
    solves = data.solves.length
    t = process.hrtime.bigint()
    const state = ScoreboardState.build(data)
    builds.push(ms(t))
    t = process.hrtime.bigint()
    json = state.snapshot().json
    snaps.push(ms(t))
  }
  const totals = loads.map((l, i) => l + builds[i]! + snaps[i]!)
  // End to end through the service (load + build + snapshot + cache write), as a NOTIFY would trigger it.
  const service: number[] = []
  for (let i = 0; i < 3; i++) {
    t = process.hrtime.bigint()
    await server.services.scoreboard.rebuild(large.gameId)
    service.push(ms(t))
  }
  // One incremental solve on this state (a fresh pair each time), and the next snapshot.
  const data = (await loadGameData(pool, large.gameId))!
  const solved = new Set(data.solves.map((s) => `${s.participationId}:${s.challengeId}`))
  const fresh: { p: number; c: number }[] = []
  for (const team of large.teams) for (const c of large.challengeIds) if (!solved.has(`${team.participationId}:${c}`) && fresh.length < 2000) fresh.push({ p: team.participationId, c })
  const counts = new Map(data.challenges.map((c) => [c.id, c.acceptedCount]))
  const incremental = ScoreboardState.build(data)
  incremental.snapshot()
  let sid = 1e9
  t = process.hrtime.bigint()
  for (const { p, c } of fresh) {
    counts.set(c, counts.get(c)! + 1)
    incremental.applySolve({ participationId: p, challengeId: c, submissionId: sid++, time: Date.now() - 60_000, userName: 'x', acceptedCount: counts.get(c) })
  }
  const applyUs = (ms(t) * 1000) / fresh.length
  const afterOne: number[] = []
  for (let i = 0; i < 5; i++) {
    const { p, c } = fresh[i]!
    incremental.applySolve({ participationId: p, challengeId: c, submissionId: sid++, time: Date.now() - 59_000, userName: 'x', acceptedCount: counts.get(c)! + 1 })
    t = process.hrtime.bigint()
    incremental.snapshot()
    afterOne.push(ms(t))
  }
  return {
    data: { teams: 1000, challenges: 100, submissions: 200000, countedSolves: solves, jsonBytes: Buffer.byteLength(json), insertMs: Math.round(insertMs) },
    loadMs: round(median(loads)),
    buildMs: round(median(builds)),
    snapshotMs: round(median(snaps)),
    totalMs: round(median(totals)),
    totalBestMs: round(Math.min(...totals)),
    serviceRebuildMs: round(median(service)),
    incrementalSolveUs: round(applyUs, 2),
    snapshotAfterSolveMs: round(median(afterOne)),
  }
}

/* ---------------------------------------------------------------- 3. queue */

async function queue(server: RunningServer, pool: pg.Pool) {
  log(`queue: ${QUEUE} submissions…`)
  const gameId = await createBenchGame(pool, 'bench queue')
  const challengeIds = await createBenchChallenges(pool, gameId, 20, 'StaticAttachment')
  const teams = await createBenchTeams(pool, gameId, 110)
  await createBenchInstances(pool, teams, challengeIds, false)
  await pool.query(`create table if not exists bench_transitions (submission_id int not null, old_status text, new_status text)`)
  await pool.query(`create or replace function bench_transition() returns trigger language plpgsql as $$
    begin insert into bench_transitions values (new.id, old.status, new.status); return new; end $$`)
  await pool.query(`drop trigger if exists bench_transition on submissions`)
  await pool.query(`create trigger bench_transition after update of status on submissions for each row when (old.status is distinct from new.status) execute function bench_transition()`)
  const logsBefore = await count(pool, 'select count(*) as n from logs')
  // a quarter correct, spread over every team × challenge
  await pool.query(
    `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time)
     select $1, ($2::int[])[1 + i % 20], ($3::int[])[1 + (i / 20) % 110], ($4::uuid[])[1 + (i / 20) % 110],
            case when i % 4 = 0 then 'flag{c' || (1 + i % 20) || '}' else 'flag{wrong}' end, 'FlagSubmitted', now() + i * interval '1 microsecond'
       from generate_series(0, $5 - 1) as i`,
    [gameId, challengeIds, teams.map((t) => t.participationId), teams.map((t) => t.userId), QUEUE],
  )
  const t = process.hrtime.bigint()
  await pool.query(`select pg_notify('flagwave_submissions', '')`)
  await until(async () => (await count(pool, `select count(*) as n from submissions where game_id = $1 and status = 'FlagSubmitted'`, [gameId])) === 0, 600_000, 10)
  const drainMs = ms(t)
  await until(async () => (await count(pool, 'select count(*) as n from logs')) >= logsBefore + QUEUE, 600_000, 100)
  const auditMs = ms(t)
  const transitions = await count(pool, `select count(*) as n from bench_transitions`)
  const distinct = await count(pool, `select count(distinct submission_id) as n from bench_transitions`)
  const settled = await count(pool, `select count(*) as n from submissions where game_id = $1 and status <> 'FlagSubmitted' and settled_at is not null`, [gameId])

  // The HTTP path: wrk posting wrong answers as 110 users round-robin.
  log('queue: HTTP submit (wrk)…')
  const script = await rotationScript(
    teams.flatMap((t, i) => ({ token: t.token, method: 'POST' as const, path: `/api/game/${gameId}/challenges/${challengeIds[i % challengeIds.length]}`, body: '{"flag":"flag{nope}"}' })),
  )
  const before = await count(pool, 'select count(*) as n from submissions where game_id = $1', [gameId])
  const post = await wrk(server.url, { script: script.file, seconds: Math.min(WRK_SECONDS, 5) })
  const t2 = process.hrtime.bigint()
  await until(async () => (await count(pool, `select count(*) as n from submissions where game_id = $1 and status = 'FlagSubmitted'`, [gameId])) === 0, 300_000, 10)
  const tail = ms(t2)
  const stored = (await count(pool, 'select count(*) as n from submissions where game_id = $1', [gameId])) - before
  const transitionsAfter = await count(pool, `select count(*) as n from bench_transitions`)
  await script.remove()
  await pool.query(`drop trigger if exists bench_transition on submissions`)
  return {
    checkers: server.services.config.CHECKER_CONCURRENCY,
    submissions: QUEUE,
    drainMs: Math.round(drainMs),
    settledPerSec: Math.round((QUEUE / drainMs) * 1000),
    settled,
    transitions,
    distinctSettled: distinct,
    lost: QUEUE - distinct,
    duplicated: transitions - distinct,
    auditDrainedMs: Math.round(auditMs),
    http: { ...post, stored, settledExactlyOnce: transitionsAfter - transitions === stored, tailMs: Math.round(tail) },
  }
}

/* ---------------------------------------------------------------- 4. latency */

async function latency(server: RunningServer, pool: pg.Pool, databaseUrl: string, via: 'http' | 'queue', sockets = SOCKETS, rate = RATE, nodes = 1) {
  log(`latency (${via}): ${sockets} sockets on ${nodes} node(s), ${rate} solves/s for ${SECONDS} s…`)
  const gameId = await createBenchGame(pool, 'bench latency')
  const challengeIds = await createBenchChallenges(pool, gameId, 20, 'DynamicContainer')
  const teams = await createBenchTeams(pool, gameId, 110)
  await createBenchInstances(pool, teams, challengeIds, true)
  await server.services.scoreboard.rebuild(gameId)
  // Three solves per challenge first, unmeasured (they take the bloods), then the measured stream.
  const warmup = 3 * challengeIds.length
  const total = Math.min(warmup + rate * SECONDS, teams.length * challengeIds.length)
  // Solves in an order that spreads over challenges and teams: each a first solve of its pair.
  const solves: [string, number, number, string, number, string][] = []
  for (let k = 0; solves.length < total; k++) {
    const team: BenchTeam = teams[k % teams.length]!
    const c = challengeIds[(k + Math.floor(k / teams.length)) % challengeIds.length]!
    solves.push([team.token, c, team.teamId, `flag{${team.participationId}_${c}}`, team.participationId, team.userId])
  }

  // Fan-out over more processes (docs/realtime.md#several-nodes): half the watchers on a second
  // node sharing the database and Redis, started after the rebuild above so that this process owns
  // the game's board and publishes its pushes; the second node writes them to its own sockets.
  if (nodes > 1 && !process.env.REDIS_URL) throw new Error('a latency run on two nodes needs REDIS_URL (their pushes travel through Redis)')
  const second = nodes > 1 ? await startSecondNode(databaseUrl) : null
  const watchers = await startWatchers([server.url, second?.url ?? server.url], gameId, sockets)
  const { ready } = watchers
  const driver = child()
  driver.send({ type: 'start', role: 'drive', args: { url: server.url, gameId, rate, solves, via, databaseUrl, warmup } })
  await nextMessage(driver, 'ready')
  const hub = server.services.realtime.server!.of('/hub/user')
  const room = async () => (second ? (await hub.in(rooms.game(gameId)).fetchSockets()).length : (hub.adapter.rooms.get(rooms.game(gameId))?.size ?? 0))
  await until(async () => (await room()) >= sockets + 1, 60_000, second ? 1000 : 50)
  const inRoom = await room()
  // Watching, not arriving: let the connection storm (handshakes, first pings) pass before solving.
  await sleep(3000)
  log(`latency: ${inRoom} sockets in the room, driving…`)
  const load = os.loadavg()[0]
  // Every board push of this game as it leaves (server side, same clock as the watchers): the
  // fan-out is measured from here, and the same frames are replayed over raw `ws` afterwards —
  // with what left in the same write (`alongside`: the challenge update `together` with the board).
  const pushes: FloorPush[] = []
  // What each fan-out to the game room cost the server: how long it held the event loop, and its CPU
  // time until the writes' callbacks have run (the next tick), which a machine busy with other work
  // hardly moves. Pushes published together (a board and its challenge update, `together`) count as one.
  const costs: Record<string, { ms: number; cpuUs: number }[]> = {}
  const realtime = server.services.realtime
  const publish = realtime.publish.bind(realtime)
  const together = realtime.together.bind(realtime)
  const gameRoom = rooms.game(gameId)
  let inside: string | null = null
  /** The board push of the `together` running now, if any. */
  let boardInside: FloorPush | null = null
  const measure = (write: () => void, kind: () => string) => {
    const at = now()
    const cpuBefore = process.cpuUsage()
    write()
    const ms = now() - at
    process.nextTick(() => {
      const cpu = process.cpuUsage(cpuBefore)
      const name = kind()
      if (name) (costs[name] ??= []).push({ ms, cpuUs: cpu.user + cpu.system })
    })
  }
  realtime.publish = ((namespace: 'user', room: string, event: 'ReceivedScoreboardUpdate', update: ScoreboardUpdate) => {
    const ours = namespace === 'user' && room === gameRoom
    if (ours && event === 'ReceivedScoreboardUpdate') {
      pushes.push({ version: update.version, at: now(), update, alongside: [] })
      if (inside !== null) boardInside = pushes.at(-1)!
    } else if (ours && boardInside) boardInside.alongside.push([event, update])
    if (!ours || inside !== null) {
      if (ours && inside !== null) inside += `+${event}`
      return publish(namespace, room, event, update)
    }
    measure(() => publish(namespace, room, event, update), () => event)
  }) as typeof realtime.publish
  realtime.together = (write: () => void, label?: string) => {
    if (inside !== null) return together(write, label)
    inside = ''
    let name = ''
    measure(
      () => {
        try {
          together(write, label)
        } finally {
          name = inside!.slice(1)
          inside = null
          boardInside = null
        }
      },
      () => name,
    )
  }
  // While driving: the server's event-loop delay and every process's CPU (the load processes share the two cores).
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  loopDelay.enable()
  const cpu = cpuWindow({ watchers1: watchers.procs[0]!.pid, watchers2: watchers.procs[1]!.pid, driver: driver.pid, secondNode: second?.pid })
  driver.send({ type: 'go' })
  const result = await nextMessage<{ t0: [string, number][]; firstVersion: [string, number][]; versionAt: [number, number][]; errors: number; errorKinds: Record<string, number>; sentIn: number }>(
    driver,
    'result',
    300_000,
  )
  const cpuWhileDriving = cpu.stop()
  loopDelay.disable()
  // The driving window on the clock of BENCH_PROFILE's CPU profiles (µs), to cut it out of them.
  log(`latency: drove until ${process.hrtime.bigint() / 1000n} µs (monotonic), ${Math.round(result.sentIn)} ms of solves`)
  await sleep(1000)
  delete (realtime as { publish?: unknown }).publish
  delete (realtime as { together?: unknown }).together
  const arrivals = await watchers.stop()
  driver.kill()
  await second?.terminate()
  const socketIo = fanOut(pushes, arrivals)
  const rawWs = await rawFloor(pushes, sockets)

  const firstVersion = new Map(result.firstVersion)
  const samples: number[] = []
  let missing = 0
  for (const [key, t0] of result.t0) {
    const v = firstVersion.get(key)
    const list = v === undefined ? undefined : arrivals.get(v)
    if (!list) {
      missing += 1
      continue
    }
    for (const at of list) samples.push(at - t0)
  }
  const sorted = Float64Array.from(samples).sort()
  const versions = [...arrivals.keys()].sort((a, b) => a - b)
  const perVersion = versions.map((v) => arrivals.get(v)!.length)
  // Where the time goes: solve → the push reaches the driver's socket (judging, engine, coalescing),
  // and how long one push takes to reach every watching socket (fan-out).
  const versionAt = new Map(result.versionAt)
  const toPush: number[] = []
  for (const [key, t0] of result.t0) {
    const at = versionAt.get(firstVersion.get(key) ?? -1)
    if (at !== undefined) toPush.push(at - t0)
  }
  if (process.env.BENCH_DUMP) await fs.writeFile(process.env.BENCH_DUMP, JSON.stringify(result.t0.map(([key, t0]) => [t0, (versionAt.get(firstVersion.get(key) ?? -1) ?? NaN) - t0])))
  const spreads = versions.map((v) => {
    const list = arrivals.get(v)!
    return Math.max(...list) - Math.min(...list)
  })
  // Solve → the push that shows it leaving this node (server clock): judging, engine and pacing, without the fan-out.
  const publishedAt = new Map(pushes.map((p) => [p.version, p.at]))
  const toPublish: number[] = []
  for (const [key, t0] of result.t0) {
    const at = publishedAt.get(firstVersion.get(key) ?? -1)
    if (at !== undefined) toPublish.push(at - t0)
  }
  const toPublishSorted = Float64Array.from(toPublish).sort()
  const fanOutCosts = Object.fromEntries(
    Object.entries(costs).map(([event, list]) => {
      const held = Float64Array.from(list.map((c) => c.ms)).sort()
      const cpuUs = list.reduce((a, c) => a + c.cpuUs, 0)
      return [
        event,
        { count: list.length, heldP50ms: round(percentile(held, 50)), heldP99ms: round(percentile(held, 99)), heldTotalMs: Math.round(list.reduce((a, c) => a + c.ms, 0)), cpuUsPerSocket: round(cpuUs / list.length / inRoom, 2) },
      ]
    }),
  )
  const toPushSorted = Float64Array.from(toPush).sort()
  const spreadSorted = Float64Array.from(spreads).sort()
  return {
    via,
    sockets,
    nodes,
    connected: ready.reduce((a, r) => a + r.connected, 0),
    inRoom,
    ratePerSec: rate,
    seconds: SECONDS,
    warmupSolves: warmup,
    solves: result.t0.length,
    submitErrors: result.errors,
    submitErrorKinds: result.errorKinds,
    sendSeconds: round(result.sentIn / 1000, 2),
    solvesNeverSeen: missing,
    pushes: versions.length,
    minSocketsPerPush: Math.min(...perVersion),
    samples: sorted.length,
    p50ms: round(percentile(sorted, 50)),
    p90ms: round(percentile(sorted, 90)),
    p99ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1] ?? NaN),
    solveToPushP50ms: round(percentile(toPushSorted, 50)),
    solveToPushP99ms: round(percentile(toPushSorted, 99)),
    solveToPublishP50ms: round(percentile(toPublishSorted, 50)),
    solveToPublishP99ms: round(percentile(toPublishSorted, 99)),
    fanOutCosts,
    loopDelayP50ms: round(loopDelay.percentile(50) / 1e6),
    loopDelayP99ms: round(loopDelay.percentile(99) / 1e6),
    loopDelayMaxMs: round(loopDelay.max / 1e6),
    cpuWhileDriving,
    fanOutP50ms: round(percentile(spreadSorted, 50)),
    fanOutP99ms: round(percentile(spreadSorted, 99)),
    // Push → screen: from the board push leaving the engine to each watching socket having it,
    // through Socket.IO, and beside it the same frames broadcast by a bare `ws` server to the same
    // number of sockets from the same watcher processes (the floor of this machine's fan-out).
    pushToScreen: socketIo,
    rawWsFloor: rawWs,
    floorRatioP50: round(socketIo.p50ms / rawWs.p50ms, 2),
    floorRatioP99: round(socketIo.p99ms / rawWs.p99ms, 2),
    loadAverageAtStart: round(load, 2),
  }
}

/** A second node on the bench's database and Redis, in its own process, without checkers. */
async function startSecondNode(databaseUrl: string) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-bench-node2-'))
  const node = await startNodeProcess({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD: 'Bench#Passw0rd',
    LOG_LEVEL: 'silent',
    CHECKER_CONCURRENCY: '0',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  })
  return {
    url: node.url,
    pid: node.child.pid,
    async terminate() {
      await node.terminate()
      await fs.rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** `sockets` watching sockets from two load processes, each on its `urls` entry (Socket.IO by default, or `path`). */
async function startWatchers(urls: [string, string], gameId: number, sockets: number, path?: string) {
  const procs = [child(), child()]
  const per = [Math.ceil(sockets / 2), Math.floor(sockets / 2)]
  procs.forEach((p, i) => p.send({ type: 'start', role: 'watch', args: { url: urls[i], gameId, count: per[i], path } }))
  const ready = await Promise.all(procs.map((p) => nextMessage<{ connected: number }>(p, 'ready', 300_000)))
  return {
    procs,
    ready,
    /** Close the sockets; when each socket had each version. */
    async stop(): Promise<Map<number, number[]>> {
      const arrivals = new Map<number, number[]>()
      for (const p of procs) p.send({ type: 'stop' })
      for (const part of await Promise.all(procs.map((p) => nextMessage<{ arrivals: [number, number[]][] }>(p, 'arrivals')))) {
        for (const [v, list] of part.arrivals) arrivals.set(v, [...(arrivals.get(v) ?? []), ...list])
      }
      for (const p of procs) p.kill()
      return arrivals
    },
  }
}

/** Push → arrival on every socket: all samples, and per push the time until the last socket had it. */
function fanOut(pushes: { version: number; at: number }[], arrivals: Map<number, number[]>) {
  const samples: number[] = []
  const last: number[] = []
  let unseen = 0
  for (const { version, at } of pushes) {
    const list = arrivals.get(version)
    if (!list) {
      unseen += 1
      continue
    }
    for (const t of list) samples.push(t - at)
    last.push(Math.max(...list) - at)
  }
  const sorted = Float64Array.from(samples).sort()
  const lastSorted = Float64Array.from(last).sort()
  return {
    pushes: pushes.length,
    pushesUnseen: unseen,
    samples: sorted.length,
    p50ms: round(percentile(sorted, 50)),
    p99ms: round(percentile(sorted, 99)),
    lastSocketP50ms: round(percentile(lastSorted, 50)),
    lastSocketP99ms: round(percentile(lastSorted, 99)),
  }
}

/** A board push as it left the server, with the events written to each socket in the same write. */
interface FloorPush {
  version: number
  at: number
  update: unknown
  alongside: [string, unknown][]
}

/**
 * The floor: a bare `ws` server in this process (no compression, like Flagwave's) answering the
 * Engine.IO/Socket.IO handshake the watchers speak, then broadcasting each recorded board push's
 * frames — the very bytes Socket.IO sent (the board, and the challenge update that went in the same
 * write), encoded once — to every socket with `ws.send`, at the recorded times. Two frames to one
 * socket are corked so that they leave in one write, as Flagwave's do (realtime/fanOut.ts).
 */
async function rawFloor(pushes: FloorPush[], sockets: number) {
  const { WebSocketServer } = await import('ws')
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  wss.on('connection', (ws) => {
    ws.send('0{"sid":"raw","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":100000}')
    ws.on('message', (data) => {
      if (String(data).startsWith('40')) ws.send(`40${NAMESPACES.user},{"sid":"raw"}`)
    })
  })
  const port = (wss.address() as { port: number }).port
  log(`latency: raw ws floor, ${sockets} sockets…`)
  const url = `http://127.0.0.1:${port}`
  const watchers = await startWatchers([url, url], 0, sockets, '/')
  await sleep(3000)
  const frame = (event: string, payload: unknown) => Buffer.from(`42${NAMESPACES.user},${JSON.stringify([event, payload])}`)
  const frames = pushes.map((p) => [frame('ReceivedScoreboardUpdate', p.update), ...p.alongside.map(([event, payload]) => frame(event, payload))])
  const sent: { version: number; at: number }[] = []
  let cpuUs = 0
  const cpu = cpuWindow({ watchers1: watchers.procs[0]!.pid, watchers2: watchers.procs[1]!.pid })
  const start = now()
  for (let i = 0; i < pushes.length; i++) {
    const wait = start + (pushes[i]!.at - pushes[0]!.at) - now()
    if (wait > 1) await sleep(wait)
    sent.push({ version: pushes[i]!.version, at: now() })
    const cpuBefore = process.cpuUsage()
    const each = frames[i]!
    if (each.length === 1) for (const ws of wss.clients) ws.send(each[0]!)
    else {
      for (const ws of wss.clients) {
        // `ws` has no public cork: its socket is the stream it writes to.
        const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket
        socket.cork()
        for (const f of each) ws.send(f)
        socket.uncork()
      }
    }
    await new Promise<void>((resolve) => process.nextTick(resolve))
    const used = process.cpuUsage(cpuBefore)
    cpuUs += used.user + used.system
  }
  const cpuWhileBroadcasting = cpu.stop()
  await sleep(1000)
  const arrivals = await watchers.stop()
  await new Promise<void>((resolve) => wss.close(() => resolve()))
  return { connected: watchers.ready.reduce((a, r) => a + r.connected, 0), ...fanOut(sent, arrivals), cpuUsPerSocket: round(cpuUs / pushes.length / sockets, 2), cpuWhileBroadcasting }
}

/* ---------------------------------------------------------------- 5. containers */

/** Platform container API against plain `docker run` on the same engine (tests/bench/containers.ts); skipped without an engine. */
async function containers(): Promise<Record<string, unknown>> {
  const availability = await dockerAvailable()
  if (!availability.ok) {
    log(`containers: skipped — ${availability.reason}`)
    return { skipped: availability.reason }
  }
  return { ...(await benchContainers({ log: (line) => log(line) })) }
}

/* ---------------------------------------------------------------- profiling */

/* ---------------------------------------------------------------- 6. opening */

const [OPENING_TEAMS, OPENING_CHALLENGES, OPENING_SOCKETS, OPENING_ROUNDS] = (process.env.BENCH_OPENING ?? '250:16:1000:3').split(':').map(Number) as [number, number, number, number]

/**
 * Openings of challenges in a running game of OPENING_TEAMS teams, watched by OPENING_SOCKETS
 * sockets (two load processes): each opening is the admin's `PUT .../challenges/{id}` with
 * `isEnabled: true`, timed from the request to its answer, to every socket holding the new board
 * version (a difference or a whole board received, or an announcement's REST read answered) and to
 * every socket's NewChallenge notice. The three ways take turns on the same game, server and
 * sockets: `delta` is the default (the new column as a difference, rebuildDelta.ts), `announced`
 * turns rebuild differences off (the large board announced and read over REST, as before them),
 * `whole` also lifts the engine's threshold (the rebuilt board pushed to every socket, as before
 * announcements). One opening of each way goes first unmeasured (warm-up), and one before the
 * sockets connect gives the PUT's own cost (`putNoWatchersMs`).
 */
async function openings(server: RunningServer, pool: pg.Pool) {
  log(`opening: ${OPENING_TEAMS} teams × ${OPENING_CHALLENGES} challenges, ${OPENING_SOCKETS} sockets, ${OPENING_ROUNDS} openings each way…`)
  const gameId = await createBenchGame(pool, 'bench opening')
  const challengeIds = await createBenchChallenges(pool, gameId, OPENING_CHALLENGES, 'StaticAttachment')
  const teams = await createBenchTeams(pool, gameId, OPENING_TEAMS)
  await createBenchInstances(pool, teams, challengeIds, false)
  // Team i has solved challenges 0 … i mod n: the board of an event under way.
  await pool.query(
    `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, settled_at)
     select $1, c.id, t.p, t.u, 'flag{ok}', 'Accepted', now() - interval '50 minutes' + c.i * interval '1 minute' + t.i * interval '10 milliseconds', now()
       from unnest($2::int[], $3::uuid[]) with ordinality as t(p, u, i)
       join unnest($4::int[]) with ordinality as c(id, i) on c.i - 1 <= (t.i - 1) % $5`,
    [gameId, teams.map((t) => t.participationId), teams.map((t) => t.userId), challengeIds, OPENING_CHALLENGES],
  )
  await recount(pool, gameId)
  // The challenges to open, closed for now (with their flags).
  const closed = await createBenchChallenges(pool, gameId, 3 * OPENING_ROUNDS + 4, 'StaticAttachment')
  await pool.query('update challenges set is_enabled = false where id = any($1::int[])', [closed])
  await server.services.scoreboard.rebuild(gameId)
  const shown = server.services.scoreboard.inMemory(gameId)!
  const board = { jsonBytes: Buffer.byteLength(shown.json), gzipBytes: (await shown.gzipped()).length }
  const admin = new ApiClient(server.url)
  await admin.login('Admin', 'Bench#Passw0rd')
  const open = async (challengeId: number) => {
    const t0 = now()
    const res = await admin.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, { isEnabled: true })
    if (res.status !== 200) throw new Error(`opening failed: ${res.status} ${res.text}`)
    return { t0, putMs: now() - t0 }
  }
  const putNoWatchersMs = round((await open(closed.pop()!)).putMs)

  const watchers = await startWatchers([server.url, server.url], gameId, OPENING_SOCKETS)
  const hub = server.services.realtime.server!.of('/hub/user')
  await until(async () => (hub.adapter.rooms.get(rooms.game(gameId))?.size ?? 0) >= OPENING_SOCKETS, 60_000, 50)
  await sleep(3000)
  const have = async (version: number) => {
    for (const p of watchers.procs) p.send({ type: 'have', version })
    return (await Promise.all(watchers.procs.map((p) => nextMessage<{ count: number }>(p, 'have')))).reduce((a, r) => a + r.count, 0)
  }

  // The board pushes to the game room as they leave, and how long each held the event loop: a board
  // and its challenge update are written together (`together`), their frames leaving each socket when it ends.
  const pushes: { version: number; at: number; kind: string; ms: number }[] = []
  const realtime = server.services.realtime
  const publish = realtime.publish.bind(realtime)
  const together = realtime.together.bind(realtime)
  const gameRoom = rooms.game(gameId)
  realtime.publish = ((namespace: 'user', room: string, event: 'ReceivedScoreboardUpdate', update: ScoreboardUpdate) => {
    const started = now()
    publish(namespace, room, event, update)
    if (namespace === 'user' && room === gameRoom && event === 'ReceivedScoreboardUpdate') {
      pushes.push({ version: update.version, at: started, kind: 'refetch' in update ? 'announced' : 'delta' in update ? 'delta' : 'whole', ms: now() - started })
    }
  }) as typeof realtime.publish
  realtime.together = (write: () => void) => {
    const started = now()
    const before = pushes.length
    together(write)
    if (pushes.length > before) pushes[before]!.ms = now() - started
  }
  // The engine's threshold (`SCOREBOARD_PUSH_MAX_BYTES`), lifted for the `whole` openings; rebuild
  // differences off for the `whole` and `announced` ones.
  const engine = server.services.scoreboard as unknown as { deps: { wholePushMaxBytes?: number; rebuildDifferences?: boolean } }
  const configured = engine.deps.wholePushMaxBytes
  const ways = ['whole', 'announced', 'delta'] as const
  const rounds: { way: (typeof ways)[number]; warmup: boolean; t0: number; putMs: number; version: number; push: string; pushMs: number; everySocketMs: number | null; loopMaxMs: number }[] = []
  try {
    for (let r = 0; r < closed.length; r++) {
      const way = ways[r % ways.length]!
      engine.deps.wholePushMaxBytes = way === 'whole' ? Infinity : configured
      engine.deps.rebuildDifferences = way === 'delta'
      pushes.length = 0
      const loop = monitorEventLoopDelay({ resolution: 10 })
      loop.enable()
      const { t0, putMs } = await open(closed[r]!)
      await until(async () => pushes.length > 0, 30_000)
      const pushed = pushes[0]!
      const all = await until(async () => (await have(pushed.version)) >= OPENING_SOCKETS, 60_000, 25)
      const everySocketMs = all ? now() - t0 : null
      loop.disable()
      rounds.push({ way, warmup: r < ways.length, t0, putMs: round(putMs), version: pushed.version, push: pushed.kind, pushMs: round(pushed.ms), everySocketMs: everySocketMs && round(everySocketMs), loopMaxMs: round(loop.max / 1e6) })
      log(`opening ${r + 1} (${way}${r < ways.length ? ', warm-up' : ''}): PUT ${round(putMs)} ms, every socket ${everySocketMs === null ? 'never' : `${round(everySocketMs)} ms`}, push ${pushed.kind} ${round(pushed.ms)} ms`)
      await sleep(2000)
    }
  } finally {
    engine.deps.wholePushMaxBytes = configured
    delete engine.deps.rebuildDifferences
    delete (realtime as { publish?: unknown }).publish
    delete (realtime as { together?: unknown }).together
  }
  const procs = watchers.procs
  for (const p of procs) p.send({ type: 'stop' })
  const parts = await Promise.all(procs.map((p) => nextMessage<{ arrivals: [number, number[]][]; notices: number[][]; readErrors: number }>(p, 'arrivals')))
  for (const p of procs) p.kill()
  const arrivals = new Map<number, number[]>()
  for (const part of parts) for (const [v, list] of part.arrivals) arrivals.set(v, [...(arrivals.get(v) ?? []), ...list])
  const notices = parts.flatMap((part) => part.notices)
  const sorted = (xs: number[]) => Float64Array.from(xs).sort()
  const perRound = rounds.map((o, r) => {
    const board = sorted((arrivals.get(o.version) ?? []).map((t) => t - o.t0))
    // Every notice of the game is an opening's NewChallenge: the r-th each socket heard is this round's.
    const heard = sorted(notices.flatMap((list) => (list[r] === undefined ? [] : [list[r]! - o.t0])))
    return {
      ...o,
      boardP50ms: round(percentile(board, 50)),
      boardP99ms: round(percentile(board, 99)),
      noticeP50ms: round(percentile(heard, 50)),
      noticeMaxMs: round(heard[heard.length - 1] ?? NaN),
      noticesHeard: heard.length,
    }
  })
  const summary = (way: string) => {
    const of = perRound.filter((o) => o.way === way && !o.warmup)
    const med = (pick: (o: (typeof of)[number]) => number | null) => round(median(of.map((o) => pick(o) ?? NaN)))
    return {
      putMs: med((o) => o.putMs),
      everySocketMs: med((o) => o.everySocketMs),
      boardP50ms: med((o) => o.boardP50ms),
      noticeP50ms: med((o) => o.noticeP50ms),
      noticeMaxMs: med((o) => o.noticeMaxMs),
      loopMaxMs: med((o) => o.loopMaxMs),
      pushMs: med((o) => o.pushMs),
    }
  }
  return {
    teams: OPENING_TEAMS,
    sockets: OPENING_SOCKETS,
    board,
    putNoWatchersMs,
    readErrors: parts.reduce((a, p) => a + p.readErrors, 0),
    whole: summary('whole'),
    announced: summary('announced'),
    delta: summary('delta'),
    rounds: perRound.map(({ t0: _t0, ...o }) => o),
  }
}

/** With BENCH_PROFILE=dir, the server's CPU profile of a section is written there (open it in Chrome's DevTools). */
async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE
  if (!dir) return run()
  const { Session } = await import('node:inspector/promises')
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  try {
    return await run()
  } finally {
    const { profile } = await session.post('Profiler.stop')
    await fs.mkdir(dir, { recursive: true })
    await fs.writeFile(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile))
    session.disconnect()
  }
}

/* ---------------------------------------------------------------- main */

async function main() {
  if ((!process.env.BENCH_ONLY || /read|outside|players|queue/.test(process.env.BENCH_ONLY)) && !existsSync(WRK)) {
    throw new Error(`the bench loads HTTP with wrk: install it first (apt-get install wrk)`)
  }
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '?',
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    postgres: '',
    redis: Boolean(process.env.REDIS_URL),
    loadAverage: os.loadavg().map((x) => round(x, 2)),
    wrk: (() => {
      try {
        return execFileSync(WRK, ['-v'], { encoding: 'utf8' }).split('\n')[0]
      } catch (err) {
        return String((err as { stdout?: string }).stdout ?? '').split('\n')[0] || 'wrk'
      }
    })(),
  }
  let databaseUrl: string
  let drop: () => Promise<void>
  if (process.env.DATABASE_URL) {
    const name = `flagwave_bench_${randomBytes(4).toString('hex')}`
    databaseUrl = await createDatabaseOn(process.env.DATABASE_URL, name)
    drop = () => dropDatabaseOn(process.env.DATABASE_URL!, name)
  } else {
    const scratch = await scratchDatabase(pino({ level: 'warn' }))
    databaseUrl = scratch.url
    drop = scratch.drop
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-bench-'))
  const config = loadConfig({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD: 'Bench#Passw0rd',
    LOG_LEVEL: 'silent',
    DISABLE_RATE_LIMIT: 'true',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  })
  const server = await startServer(config, pino({ level: 'silent' }))
  const pool = await nativePool(server.services.orm)
  machine.postgres = (await pool.query<{ server_version: string }>('show server_version')).rows[0]!.server_version
  const results: Record<string, unknown> = { date: new Date().toISOString(), machine }
  try {
    const only = new Set((process.env.BENCH_ONLY ?? 'read,outside,players,rebuild,replay,queue,latency,opening,containers').split(','))
    if (only.has('read')) results.scoreboardRead = await readThroughput(server, pool)
    if (only.has('outside')) results.outside = await outsideRead({ rounds: READ_ROUNDS, seconds: READ_SECONDS, log })
    if (only.has('players')) {
      const game = await smallDataSet(pool)
      await server.services.scoreboard.rebuild(game.gameId)
      const only = process.env.BENCH_CALLS?.split(',') as PlayerCall[] | undefined
      const figures = await profiled('players', () => playerCalls(server, pool, game, { rounds: READ_ROUNDS, seconds: READ_SECONDS, only, log }))
      // Every wrong flag posted was queued once and settled once.
      const settled = await until(async () => (await count(pool, `select count(*) as n from submissions where game_id = $1 and status = 'FlagSubmitted'`, [game.gameId])) === 0, 300_000, 20)
      results.players = { ...figures, allSubmissionsSettled: settled }
    }
    if (only.has('rebuild')) results.rebuild = await rebuild(server, pool)
    if (only.has('replay')) {
      log('replay seeks on a large data set…')
      results.replay = await replaySeeks(pool, (await largeDataSet(pool)).gameId)
    }
    if (only.has('queue')) {
      const figures = await queue(server, pool)
      log('queue: single-row inserts on the same PostgreSQL (baseline)…')
      results.queue = { ...figures, insertBaseline: await insertBaseline(pool, databaseUrl, 5) }
    }
    if (only.has('latency')) {
      const runs: unknown[] = []
      for (const spec of LATENCY_RUNS.split(',')) {
        const [via, rate, sockets, nodes = '1'] = spec.split(':')
        runs.push(
          await profiled(`latency-${via}-${rate}-${sockets}-${nodes}`, () => latency(server, pool, databaseUrl, via as 'http' | 'queue', Number(sockets), Number(rate), Number(nodes))),
        )
      }
      results.latency = runs
    }
    if (only.has('opening')) results.opening = await profiled('opening', () => openings(server, pool))
    if (only.has('containers')) results.containers = await containers()
  } finally {
    results.loadAverageAtEnd = os.loadavg().map((x) => round(x, 2))
    await server.close()
    await drop().catch(() => undefined)
    await fs.rm(dataDir, { recursive: true, force: true })
  }
  if (process.env.BENCH_ONLY) {
    console.log(JSON.stringify(results, null, 2))
    return
  }
  const table = markdownTable(results)
  await fs.writeFile(path.join(HERE, 'results.json'), JSON.stringify(results, null, 2) + '\n')
  await fs.writeFile(path.join(HERE, 'results.md'), table + '\n')
  await updateReadme(path.join(HERE, '../../README.md'), table)
  console.log(table)
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
