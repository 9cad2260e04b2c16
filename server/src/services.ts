/**
 * Everything a request or a worker needs, built once per process (and once per test server).
 */
import { Redis } from 'ioredis'
import pino, { type Logger } from 'pino'
import type { Config } from './config.js'
import type { Orm } from './db/orm.js'
import { Realtime } from './realtime/publish.js'
import type { BlobStore } from './storage/blobStore.js'
import type { CaptureStore } from './storage/captures.js'
import { createStorage } from './storage/index.js'
import { Mailer } from './lib/mailer.js'
import { SettingsStore } from './domain/config/settings.js'
import { AuditLog } from './domain/logs/audit.js'
import { RateLimits } from './http/rateLimit.js'
import { rooms } from '@flagwave/shared/events'
import { presentGlobalConfig } from './presenters/config.js'
import { ScoreboardService } from './domain/scoreboard/service.js'
import { createContainerRuntime, type ContainerRuntime } from './containers/runtime.js'
import { ReadCache } from './cache/readCache.js'
import { Metrics } from './lib/metrics.js'
import { registerPlatformMetrics } from './domain/ops/metrics.js'
import { attachReadCache, listenForInvalidations } from './cache/invalidation.js'
import { SUBMISSION_CHANNEL, SubmissionSignal } from './domain/submissions/queue.js'
import { nativePool } from './db/pg.js'
import { VisitRecorder } from './domain/accounts/visits.js'

export interface Services {
  config: Config
  orm: Orm
  log: Logger
  redis: Redis | null
  realtime: Realtime
  /** Uploaded files, by content hash (STORAGE_URL: a directory or an S3 bucket). */
  storage: BlobStore
  /** Traffic captures, in the same place as `storage`. */
  captures: CaptureStore
  mailer: Mailer
  settings: SettingsStore
  audit: AuditLog
  limits: RateLimits
  /** Prometheus metrics of this node (GET /metrics, docs/operations.md#metrics). */
  metrics: Metrics
  /**
   * The scoreboard engine (domain/scoreboard/service.ts): `get(gameId)` → the current ScoreboardModel;
   * `snapshot(gameId)` → `{ version, etag, json, model, start }` or null; `applySolve`; `rebuild`.
   */
  scoreboard: ScoreboardService
  /** Hot-path reads kept in memory, dropped by tag on commit (cache/, docs/architecture.md#read-cache). */
  readCache: ReadCache
  /** Last visits, written in batches (domain/accounts/visits.ts). */
  visits: VisitRecorder
  /** The container provider (CONTAINER_PROVIDER) and the proxy's shared state. */
  containers: ContainerRuntime
  /** Wakes the submission checkers of every node after a submission (domain/submissions/queue.ts). */
  submissions: SubmissionSignal
  /** Stop background work and close connections (graceful shutdown, tests). */
  close(): Promise<void>
}

/**
 * The server's log on stdout, written asynchronously: lines logged while a write is in flight go
 * out together in the next one, so an access line does not cost each request a blocking write
 * (docs/operations.md#logs). Nothing waits to fill a buffer, so a quiet server's lines appear at
 * once, and pino flushes what is pending when the process exits.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({ level: config.LOG_LEVEL, base: { app: 'flagwave' } }, pino.destination({ dest: 1, sync: false }))
}

export async function createServices(config: Config, orm: Orm, log: Logger): Promise<Services> {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 3, keyPrefix: `${config.REDIS_PREFIX}:` }) : null
  if (redis) await redis.connect()
  const metrics = new Metrics()
  const realtime = new Realtime((event, seconds) => metrics.pushed(event, seconds))
  // Channels are not covered by ioredis' keyPrefix, so they carry the prefix themselves.
  const settingsChannel = `${config.REDIS_PREFIX}:settings`
  const closers: (() => Promise<unknown>)[] = []
  const settings = new SettingsStore((changed) => {
    void redis?.publish(settingsChannel, 'changed')
    realtime.publish('user', rooms.everyone, 'ReceivedConfigUpdate', presentGlobalConfig(changed))
  }, { log })
  if (redis) {
    const sub = redis.duplicate()
    await sub.subscribe(settingsChannel)
    sub.on('message', () => settings.invalidate())
    closers.push(() => sub.quit())
  }
  const readCache = new ReadCache()
  attachReadCache(orm, readCache)
  const invalidations = listenForInvalidations(orm, readCache, log)
  await invalidations.start()
  closers.push(() => invalidations.stop())
  const containers = await createContainerRuntime(config, orm, log)
  closers.push(() => containers.close())
  const pool = await nativePool(orm)
  const submissions = new SubmissionSignal((origin) => pool.query('select pg_notify($1, $2)', [SUBMISSION_CHANNEL, origin]), log)
  closers.push(async () => submissions.close())
  const storage = createStorage(config.storage, config.dataDir, log)
  closers.push(async () => storage.close())
  const visits = new VisitRecorder(() => nativePool(orm), log)
  closers.push(() => visits.flush())
  const services: Services = {
    config,
    orm,
    log,
    redis,
    realtime,
    storage: storage.blobs,
    captures: storage.captures,
    mailer: new Mailer(config.SMTP_URL, config.SMTP_FROM, log),
    settings,
    audit: new AuditLog(orm, realtime, log),
    limits: new RateLimits(redis, !config.DISABLE_RATE_LIMIT),
    metrics,
    readCache,
    visits,
    scoreboard: new ScoreboardService({ orm, redis, realtime, log, metrics, readCache, wholePushMaxBytes: config.SCOREBOARD_PUSH_MAX_BYTES }),
    containers,
    submissions,
    async close() {
      for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
      if (redis) await redis.quit().catch(() => undefined)
    },
  }
  registerPlatformMetrics(services)
  return services
}
