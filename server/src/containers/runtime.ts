/**
 * The container side of a node (`services.containers`): the provider chosen by
 * CONTAINER_PROVIDER, the deployment's label scope, and the little in-process state the
 * lifecycle and the proxy share (operations in flight, engine ids not yet committed, the proxy's
 * validity cache and connection counts, open proxy sessions).
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import type { Orm } from '../db/orm.js'
import { ConfigEntry } from '../entities/ConfigEntry.js'
import type { ContainerProvider } from './provider.js'
import { DockerProvider } from './docker.js'
import { KubernetesProvider } from './kubernetes.js'
import { NoContainerProvider } from './none.js'

/** A small TTL map (the proxy's 10-minute validity cache, docs/compatibility.md#group-proxy). */
class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>()
  constructor(private readonly ttlMs: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.expires <= Date.now()) {
      this.entries.delete(key)
      return undefined
    }
    return entry.value
  }

  set(key: K, value: V): void {
    if (this.entries.size > 50_000) {
      const now = Date.now()
      for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k)
      if (this.entries.size > 50_000) this.entries.clear()
    }
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs })
  }

  delete(key: K): void {
    this.entries.delete(key)
  }
}

export interface Closable {
  close(): void
}

export class ContainerRuntime {
  readonly proxyMode: boolean
  /** Operations running on this node, keyed `instance:{id}` or `test:{challengeId}`. */
  private readonly busy = new Set<string>()
  /** Engine ids created on this node whose database row is not committed yet. */
  readonly uncommitted = new Set<string>()
  /** Proxy: container id → whether it exists, cached 10 minutes (negative results too). */
  readonly validity = new TtlCache<string, boolean>(10 * 60_000)
  /** Proxy: open connections per container id. */
  readonly connections = new Map<string, number>()
  readonly sessions = new Set<Closable>()

  constructor(
    readonly provider: ContainerProvider,
    readonly scope: string,
    readonly config: Config,
    readonly log: Logger,
  ) {
    this.proxyMode = config.CONTAINER_PORT_MAPPING === 'proxy'
  }

  /** Claim an operation key; false when another request of this node holds it. */
  tryClaim(key: string): boolean {
    if (this.busy.has(key)) return false
    this.busy.add(key)
    return true
  }

  release(key: string): void {
    this.busy.delete(key)
  }

  async close(): Promise<void> {
    for (const session of [...this.sessions]) session.close()
    this.sessions.clear()
    await this.provider.close()
  }
}

const SCOPE_KEY = 'containers.scope'

/**
 * The deployment's label scope: a GUID stored once in the database, so every node of one
 * deployment shares it and two deployments (or two test servers) on one engine never touch
 * each other's containers.
 */
async function containerScope(orm: Orm): Promise<string> {
  const em = orm.em.fork()
  await em.getConnection().execute(`insert into "configs" ("key", "value") values (?, ?) on conflict ("key") do nothing`, [SCOPE_KEY, randomUUID()])
  const row = await em.findOneOrFail(ConfigEntry, { key: SCOPE_KEY })
  return row.value as string
}

function createProvider(config: Config, log: Logger, scope: string): ContainerProvider {
  switch (config.CONTAINER_PROVIDER) {
    case 'docker':
      return new DockerProvider(config, log, scope)
    case 'kubernetes':
      return new KubernetesProvider(config, log, scope)
    default:
      return new NoContainerProvider()
  }
}

export async function createContainerRuntime(config: Config, orm: Orm, log: Logger): Promise<ContainerRuntime> {
  const scope = await containerScope(orm)
  return new ContainerRuntime(createProvider(config, log, scope), scope, config, log)
}
