/**
 * Container benchmark: the platform's container endpoints against plain Docker, same image, same
 * engine, same run.
 *
 * - platform: `POST /api/game/{id}/container/{cid}` (every check, engine create + start +
 *   inspect, the database row, events) and `DELETE` of it, one at a time, then 50 teams starting
 *   at once (and destroying at once);
 * - docker: dockerode `createContainer` + `start` (what `docker run -d` does) with the same
 *   limits and port publishing, and `remove({ force: true })`, likewise.
 *
 * `benchContainers()` returns the figures (milliseconds); run this file directly to print them:
 *   DOCKER_HOST=unix:///run/flagwave-ci/docker.sock DATABASE_URL=postgres://… node --import tsx tests/bench/containers.ts
 * Without DATABASE_URL an embedded PostgreSQL is started. Everything it creates is removed.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import pino from 'pino'
import type Docker from 'dockerode'
import { loadConfig } from '../../server/src/config.js'
import { startServer } from '../../server/src/server.js'
import { scratchDatabase } from '../../server/src/db/scratch.js'
import { ensureInstances } from '../../server/src/domain/play/instances.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { LABEL_SCOPE } from '../../server/src/containers/provider.js'
import { ApiClient } from '../support/client.js'
import { ADMIN_PASSWORD, type TestServer } from '../support/server.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createPlayer, type Player } from '../support/factories/play.js'
import { TEST_IMAGE_PORT, dockerAvailable, ensureTestImage, removeLabelled, testDocker } from '../support/docker.js'

interface LatencyStats {
  n: number
  p50: number
  p99: number
  mean: number
  min: number
  max: number
}

interface ConcurrentFigures {
  /** Per-request latency of the concurrent batch. */
  latency: LatencyStats
  /** From the first request to the last answer. */
  wallMs: number
}

interface SideFigures {
  start: LatencyStats
  destroy: LatencyStats
  concurrentStart: ConcurrentFigures
  concurrentDestroy: ConcurrentFigures
}

export interface ContainerBenchFigures {
  iterations: number
  concurrency: number
  platform: SideFigures
  docker: SideFigures
  /** platform p50 / docker p50 (1.0 = no overhead). */
  overhead: { start: number; destroy: number; concurrentStartP50: number; concurrentStartP99: number }
}

export interface ContainerBenchOptions {
  /** Sequential starts/destroys per side (default 10). */
  iterations?: number
  /** Containers started at once (default 50). */
  concurrency?: number
  log?: (line: string) => void
}

const round = (n: number) => Math.round(n * 10) / 10

function stats(samples: number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p99: round(at(0.99)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
    min: round(sorted[0] ?? 0),
    max: round(sorted[sorted.length - 1] ?? 0),
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now()
  const value = await fn()
  return [performance.now() - t0, value]
}

async function concurrently(count: number, fn: (i: number) => Promise<unknown>): Promise<ConcurrentFigures> {
  const t0 = performance.now()
  const latencies = await Promise.all(Array.from({ length: count }, async (_, i) => (await timed(() => fn(i)))[0]))
  return { latency: stats(latencies), wallMs: round(performance.now() - t0) }
}

// ---- plain Docker ---------------------------------------------------------------------------

const BENCH_LABEL = 'flagwave.bench'

async function dockerRun(docker: Docker, image: string, runId: string): Promise<Docker.Container> {
  const container = await docker.createContainer({
    Image: image,
    Env: ['GZCTF_FLAG=flag{bench}'],
    Labels: { [BENCH_LABEL]: runId },
    ExposedPorts: { [`${TEST_IMAGE_PORT}/tcp`]: {} },
    HostConfig: {
      Memory: 64 * 1024 * 1024,
      NanoCpus: 100_000_000,
      PidsLimit: 1024,
      PortBindings: { [`${TEST_IMAGE_PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] },
    },
  })
  await container.start()
  return container
}

async function benchDocker(docker: Docker, image: string, iterations: number, concurrency: number, runId: string): Promise<SideFigures> {
  await (await dockerRun(docker, image, runId)).remove({ force: true }) // warm-up
  const starts: number[] = []
  const destroys: number[] = []
  const single: Docker.Container[] = []
  for (let i = 0; i < iterations; i++) {
    const [ms, c] = await timed(() => dockerRun(docker, image, runId))
    starts.push(ms)
    single.push(c)
  }
  for (const c of single) destroys.push((await timed(() => c.remove({ force: true })))[0])
  const batch: Docker.Container[] = []
  const concurrentStart = await concurrently(concurrency, async (i) => {
    batch[i] = await dockerRun(docker, image, runId)
  })
  const concurrentDestroy = await concurrently(concurrency, (i) => batch[i]!.remove({ force: true }))
  return { start: stats(starts), destroy: stats(destroys), concurrentStart, concurrentDestroy }
}

// ---- the platform ---------------------------------------------------------------------------

async function benchPlatform(server: TestServer, image: string, iterations: number, concurrency: number, log: (line: string) => void): Promise<SideFigures> {
  const em = () => server.services.orm.em.fork()
  const game = await createGame(server, { containerCountLimit: 0 })
  const challengeOptions = { type: 'DynamicContainer' as const, containerImage: image, containerExposePort: TEST_IMAGE_PORT, flags: [] }
  const challenges: Challenge[] = []
  for (let i = 0; i < iterations + 1; i++) challenges.push(await createChallenge(server, game, challengeOptions))
  log(`  creating ${concurrency} teams…`)
  const players: Player[] = []
  for (let i = 0; i < concurrency; i++) players.push(await createPlayer(server, game))
  for (const p of players) await ensureInstances(em(), p.participation.id, game.id)
  const path = (cid: number) => `/api/game/${game.id}/container/${cid}`
  const coolDown = () => em().nativeUpdate(GameInstance, { participation: { $in: players.map((p) => p.participation.id) } }, { lastContainerOperation: new Date(0) })
  const expect200 = async (p: Promise<{ status: number; text: string }>) => {
    const res = await p
    if (res.status !== 200) throw new Error(`platform answered ${res.status} ${res.text}`)
  }
  const solo = players[0]!

  // warm-up (image metadata, first connection pool use, storage-quota detection)
  await expect200(solo.client.post(path(challenges[iterations]!.id)))
  await coolDown()
  await expect200(solo.client.delete(path(challenges[iterations]!.id)))

  const starts: number[] = []
  const destroys: number[] = []
  for (let i = 0; i < iterations; i++) starts.push((await timed(() => expect200(solo.client.post(path(challenges[i]!.id)))))[0])
  await coolDown()
  for (let i = 0; i < iterations; i++) destroys.push((await timed(() => expect200(solo.client.delete(path(challenges[i]!.id)))))[0])

  await coolDown()
  const shared = challenges[0]!.id
  const concurrentStart = await concurrently(concurrency, (i) => expect200(players[i]!.client.post(path(shared))))
  await coolDown()
  const concurrentDestroy = await concurrently(concurrency, (i) => expect200(players[i]!.client.delete(path(shared))))
  return { start: stats(starts), destroy: stats(destroys), concurrentStart, concurrentDestroy }
}

/** A platform node on a scratch database with the Docker provider, as tests start it. */
async function startBenchServer(): Promise<{ server: TestServer; stop: () => Promise<void> }> {
  const quiet = pino({ level: 'silent' })
  const db = await scratchDatabase(quiet)
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-bench-'))
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    DISABLE_RATE_LIMIT: 'true',
    CONTAINER_PROVIDER: 'docker',
    ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}),
    CONTAINER_REAPER_INTERVAL_MS: '3600000',
  })
  const running = await startServer(config, quiet)
  const server = {
    ...running,
    databaseUrl: db.url,
    dataDir,
    client: () => new ApiClient(running.url),
    admin: async () => {
      const c = new ApiClient(running.url)
      await c.login('Admin', ADMIN_PASSWORD)
      return c
    },
  } as TestServer
  return {
    server,
    stop: async () => {
      await running.close()
      await db.drop().catch(() => undefined)
      await fs.rm(dataDir, { recursive: true, force: true })
    },
  }
}

export async function benchContainers(options: ContainerBenchOptions = {}): Promise<ContainerBenchFigures> {
  const iterations = options.iterations ?? 10
  const concurrency = options.concurrency ?? 50
  const log = options.log ?? (() => undefined)
  const availability = await dockerAvailable()
  if (!availability.ok) throw new Error(`container benchmark needs Docker: ${availability.reason}`)
  const docker = testDocker()
  const image = await ensureTestImage(docker)
  const runId = `bench-${process.pid}-${Date.now()}`
  const { server, stop } = await startBenchServer()
  const scope = server.services.containers.scope
  try {
    log('containers: plain docker run (createContainer + start)…')
    const plain = await benchDocker(docker, image, iterations, concurrency, runId)
    log('containers: platform POST/DELETE /api/game/{id}/container/{cid}…')
    const platform = await benchPlatform(server, image, iterations, concurrency, log)
    const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0)
    return {
      iterations,
      concurrency,
      platform,
      docker: plain,
      overhead: {
        start: ratio(platform.start.p50, plain.start.p50),
        destroy: ratio(platform.destroy.p50, plain.destroy.p50),
        concurrentStartP50: ratio(platform.concurrentStart.latency.p50, plain.concurrentStart.latency.p50),
        concurrentStartP99: ratio(platform.concurrentStart.latency.p99, plain.concurrentStart.latency.p99),
      },
    }
  } finally {
    await stop()
    await removeLabelled(docker, BENCH_LABEL, runId)
    await removeLabelled(docker, LABEL_SCOPE, scope)
  }
}

/** The figures as printable lines. */
function formatContainerFigures(f: ContainerBenchFigures): string[] {
  const row = (name: string, s: LatencyStats) => `${name.padEnd(34)} p50 ${String(s.p50).padStart(7)} ms   p99 ${String(s.p99).padStart(7)} ms   (n=${s.n})`
  const side = (label: string, s: SideFigures) => [
    `${label}`,
    row('  start one', s.start),
    row('  destroy one', s.destroy),
    `${row(`  start ${f.concurrency} at once`, s.concurrentStart.latency)}   wall ${s.concurrentStart.wallMs} ms`,
    `${row(`  destroy ${f.concurrency} at once`, s.concurrentDestroy.latency)}   wall ${s.concurrentDestroy.wallMs} ms`,
  ]
  return [
    ...side('platform (HTTP API)', f.platform),
    ...side('docker (dockerode create+start / remove)', f.docker),
    `overhead p50: start ×${f.overhead.start}, destroy ×${f.overhead.destroy}, ${f.concurrency} concurrent ×${f.overhead.concurrentStartP50} (p99 ×${f.overhead.concurrentStartP99})`,
  ]
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchContainers({ log: (l) => console.log(l) })
  for (const line of formatContainerFigures(figures)) console.log(line)
  process.exit(0)
}
