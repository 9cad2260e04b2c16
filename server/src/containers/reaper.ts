/**
 * Keeping the database and the engine in agreement (docs/architecture.md#containers):
 * - `reapExpired` destroys containers past `expectStopAt` (team and test containers), test
 *   containers whose challenge is gone, and team containers whose instance is gone;
 * - `notifyExpiring` pushes `ReceivedContainerUpdate` (reason `expiring`) once per container
 *   and deadline, when fewer than 10 minutes are left (the prolong window);
 * - `reconcileContainers` compares the engine's managed containers (this deployment's scope)
 *   with the database: engine containers the database does not know are removed, database
 *   containers the engine no longer runs are marked Destroyed, detached from their instance,
 *   and their leftovers removed from the engine. Containers being created right now (on this
 *   node: `uncommitted`; on any node: younger than the grace period) are left alone.
 * The worker (workers/reaper.ts) runs all three at boot and then every
 * CONTAINER_REAPER_INTERVAL_MS, one node at a time (PostgreSQL advisory lock).
 */
import { rooms } from '@flagwave/shared/events'
import { CONTAINER_PROLONG_WINDOW_MS } from '@flagwave/shared/limits'
import type { Services } from '../services.js'
import { Container } from '../entities/Container.js'
import { GameInstance } from '../entities/GameInstance.js'
import type { Participation } from '../entities/Participation.js'
import { containerUpdate } from '../presenters/containers.js'
import { destroyContainer } from '../domain/containers/lifecycle.js'
import { invalidateAfterCommit, tags } from '../cache/invalidation.js'

/** Destroyed rows are kept this long as a trace of containers that died behind our back. */
const DESTROYED_RETENTION_MS = 24 * 3600 * 1000

export interface ReapResult {
  destroyed: string[]
  failed: string[]
}

export async function reapExpired(services: Services, now = new Date()): Promise<ReapResult> {
  const em = services.orm.em.fork()
  const expired = await em.find(Container, { status: { $ne: 'Destroyed' }, expectStopAt: { $lte: now } }, { fields: ['id'] })
  // Orphans: test containers of deleted challenges, team containers of deleted instances.
  const orphans = await em.getConnection().execute<{ id: string }[]>(
    `select c.id from containers c
      where c.status <> 'Destroyed'
        and ((c.test_challenge_id is not null and not exists (select 1 from challenges ch where ch.id = c.test_challenge_id))
          or (c.test_challenge_id is null and not exists (select 1 from instances i where i.container_id = c.id)))`,
  )
  const ids = [...new Set([...expired.map((c) => c.id), ...orphans.map((o) => o.id)])].filter((id) => !services.containers.uncommitted.has(id))
  const result: ReapResult = { destroyed: [], failed: [] }
  for (const id of ids) {
    try {
      if (await destroyContainer(services, id)) result.destroyed.push(id)
    } catch (err) {
      result.failed.push(id)
      services.log.warn({ err, container: id }, 'reaper: destroy failed; retrying next round')
    }
  }
  await em.nativeDelete(Container, { status: 'Destroyed', expectStopAt: { $lt: new Date(now.getTime() - DESTROYED_RETENTION_MS) } })
  if (result.destroyed.length) services.log.info({ count: result.destroyed.length }, 'reaper: destroyed expired containers')
  return result
}

/** Push `expiring` once per (container, deadline); `notified` is the worker's memory. */
export async function notifyExpiring(services: Services, notified: Map<string, number>, now = new Date()): Promise<number> {
  const em = services.orm.em.fork()
  const soon = await em.find(
    GameInstance,
    { container: { status: { $ne: 'Destroyed' }, expectStopAt: { $gt: now, $lte: new Date(now.getTime() + CONTAINER_PROLONG_WINDOW_MS) } } },
    { populate: ['container', 'participation'] },
  )
  const seen = new Set<string>()
  let sent = 0
  for (const instance of soon) {
    const container = instance.container as Container
    seen.add(container.id)
    const deadline = container.expectStopAt.getTime()
    if (notified.get(container.id) === deadline) continue
    notified.set(container.id, deadline)
    const participation = instance.participation as Participation
    const gameId = (participation.game as unknown as { id: number }).id
    const challengeId = (instance.challenge as unknown as { id: number }).id
    services.realtime.publish('user', rooms.team(gameId, participation.id), 'ReceivedContainerUpdate', containerUpdate(challengeId, container, 'expiring'))
    sent++
  }
  for (const id of notified.keys()) if (!seen.has(id)) notified.delete(id)
  return sent
}

export interface ReconcileResult {
  /** Engine containers the database did not know, removed. */
  removed: string[]
  /** Database containers the engine no longer ran, marked Destroyed. */
  markedDestroyed: string[]
}

export async function reconcileContainers(services: Services, options: { graceMs?: number } = {}): Promise<ReconcileResult> {
  const runtime = services.containers
  const result: ReconcileResult = { removed: [], markedDestroyed: [] }
  if (runtime.provider.name === 'none') return result
  const graceMs = options.graceMs ?? 3 * services.config.CONTAINER_ENGINE_TIMEOUT_MS + 5000
  const listedAt = Date.now()
  const engine = await runtime.provider.list()
  const em = services.orm.em.fork()
  const rows = await em.find(Container, { status: { $ne: 'Destroyed' } })
  const byEngineId = new Map(rows.map((r) => [r.containerId, r]))
  const byGuid = new Map(rows.map((r) => [r.id, r]))

  // Engine → database: unknown managed containers go.
  for (const c of engine) {
    const known = byEngineId.get(c.containerId) ?? (c.guid ? byGuid.get(c.guid) : undefined)
    if (known) continue
    if (c.guid && runtime.uncommitted.has(c.guid)) continue
    if (c.createdAt.getTime() > listedAt - graceMs) continue
    try {
      await runtime.provider.destroy(c.containerId)
      result.removed.push(c.containerId)
    } catch (err) {
      services.log.warn({ err, containerId: c.containerId }, 'reconcile: removing an unknown container failed')
    }
  }

  // Database → engine: rows whose container no longer runs are marked Destroyed and detached.
  const running = new Set(engine.filter((c) => c.running).map((c) => c.containerId))
  for (const row of rows) {
    if (running.has(row.containerId) || runtime.uncommitted.has(row.id)) continue
    if (row.startedAt.getTime() >= listedAt) continue // committed after the listing began
    const owner = await em.findOne(GameInstance, { container: row.id }, { populate: ['participation'] })
    await em.transactional(async (tem) => {
      await tem.nativeUpdate(GameInstance, { container: row.id }, { container: null })
      await tem.nativeUpdate(Container, { id: row.id }, { status: 'Destroyed' })
      // The team's challenge detail showed it (docs/performance.md#hot-reads).
      if (owner) await invalidateAfterCommit(tem, [tags.instance((owner.participation as Participation).id, (owner.challenge as unknown as { id: number }).id)])
    })
    runtime.validity.delete(row.id)
    result.markedDestroyed.push(row.id)
    // An exited container still exists in the engine: remove the leftover.
    await runtime.provider.destroy(row.containerId).catch((err: unknown) => services.log.warn({ err, containerId: row.containerId }, 'reconcile: leftover removal failed'))
    if (owner) {
      const participation = owner.participation as Participation
      const gameId = (participation.game as unknown as { id: number }).id
      const challengeId = (owner.challenge as unknown as { id: number }).id
      services.realtime.publish('user', rooms.team(gameId, participation.id), 'ReceivedContainerUpdate', containerUpdate(challengeId, null, 'destroyed'))
    }
  }
  if (result.removed.length || result.markedDestroyed.length) services.log.info(result, 'reconcile: engine and database reconciled')
  return result
}
