/**
 * Container lifecycle rules (CONTRACT §3.5.24–26, §3.4.20–21, §3.2.18–19, DESIGN §7).
 *
 * Order of work for a start: every contract check → the engine creates and starts the
 * container → one transaction inserts the Container row and attaches it to the instance
 * (re-checking, under row locks, that no other request attached one meanwhile and that the
 * team limit still holds) → the realtime pushes go out after the commit. If anything after
 * the engine step fails, the engine container is removed again: there is never a database row
 * without an engine container behind it, nor a committed instance pointing at a failed one.
 *
 * Destroying goes the other way: the engine first (a failure leaves the database untouched and
 * answers the endpoint's 400), then the row is deleted (the instance's foreign key is set null).
 */
import { randomUUID } from 'node:crypto'
import { LockMode } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { isContainerType } from '@flagwave/shared/enums'
import { generateTestFlag } from '@flagwave/shared/flags'
import { CONTAINER_COOLDOWN_MS, CONTAINER_LIFETIME_MS, CONTAINER_PROLONG_WINDOW_MS } from '@flagwave/shared/limits'
import type { Services } from '../../services.js'
import { Container } from '../../entities/Container.js'
import { Challenge } from '../../entities/Challenge.js'
import { Game } from '../../entities/Game.js'
import { GameEvent } from '../../entities/GameEvent.js'
import { GameInstance } from '../../entities/GameInstance.js'
import { Participation } from '../../entities/Participation.js'
import { Team } from '../../entities/Team.js'
import { User } from '../../entities/User.js'
import { AppError, badRequest, notFound, tooManyRequests } from '../../lib/errors.js'
import type { Publish } from '../../realtime/sink.js'
import { ProviderError, type ContainerSpec, type CreatedContainer } from '../../containers/provider.js'
import { loadInstance } from '../play/instances.js'
import { gameContext, type GameContext } from '../play/gate.js'
import type { Actor, Scope } from '../scope.js'
import { publishContainerEvent, publishContainerUpdate } from './events.js'

export const TITLES = {
  notFound: '题目未找到',
  notContainer: '题目不可创建容器',
  tooFrequent: '容器操作过于频繁',
  alreadyCreated: '题目已经创建容器',
  createFailed: '题目创建容器失败',
  notCreated: '题目未创建容器',
  cannotProlong: '容器时间尚不可延长',
  destroyFailed: '题目删除容器失败',
  teamLimit: (n: number) => `队伍容器数目不能超过 ${n}`,
  testWrongType: '题目类型不可创建容器',
  testConfig: '容器配置错误',
  testCreateFailed: '容器创建失败',
  instanceNotFound: '容器实例未找到',
  instanceDestroyFailed: '容器实例销毁失败',
} as const

const isLive = (c: Container | null | undefined): c is Container => !!c && c.status !== 'Destroyed'

function specFor(guid: string, challenge: Challenge, flag: string | null, kind: ContainerSpec['kind'], gameId: number, participation?: Participation): ContainerSpec {
  return {
    id: guid,
    image: challenge.containerImage.trim(),
    port: challenge.containerExposePort,
    memoryLimit: challenge.memoryLimit,
    cpuCount: challenge.cpuCount,
    storageLimit: challenge.storageLimit,
    flag,
    kind,
    gameId,
    challengeId: challenge.id,
    teamId: participation ? (participation.team as Team).id : undefined,
    participationId: participation?.id,
  }
}

/** Ask the engine; the guid stays in `uncommitted` (reconciliation leaves it alone) until the caller commits. */
async function engineCreate(services: Services, spec: ContainerSpec): Promise<CreatedContainer> {
  services.containers.uncommitted.add(spec.id)
  try {
    return await services.containers.provider.create(spec)
  } catch (err) {
    services.containers.uncommitted.delete(spec.id)
    throw err
  }
}

/** Remove an engine container whose database step failed (best effort, logged). */
async function engineRollback(services: Services, containerId: string): Promise<void> {
  await services.containers.provider.destroy(containerId).catch((err: unknown) => services.log.error({ err, containerId }, 'containers: rollback of an engine container failed'))
}

function newRow(em: EntityManager, services: Services, guid: string, image: string, created: CreatedContainer, flag: string | null, testChallengeId: number | null): Container {
  const now = new Date()
  return em.create(Container, {
    id: guid,
    containerId: created.containerId,
    image,
    status: created.status,
    startedAt: now,
    expectStopAt: new Date(now.getTime() + CONTAINER_LIFETIME_MS),
    ip: created.ip,
    port: created.port,
    publicIp: created.publicIp,
    publicPort: created.publicPort,
    isProxy: services.containers.proxyMode,
    testChallengeId,
    flag,
  })
}

function providerFailure(services: Services, err: unknown, title: string, what: Record<string, unknown>): AppError {
  if (err instanceof AppError) return err
  const level = err instanceof ProviderError && err.reason === 'disabled' ? 'info' : 'warn'
  services.log[level]({ err, ...what }, `containers: ${title}`)
  return badRequest(title)
}

// ---- the team's instance ------------------------------------------------------------------

/** The instance behind the container endpoints: loadable (CONTRACT §3.5.19) and of a container type. */
async function containerInstance(em: EntityManager, context: GameContext, challengeId: number): Promise<{ instance: GameInstance; challenge: Challenge; container: Container | null }> {
  let view
  try {
    view = await loadInstance(em, context.game, context.participation, challengeId)
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw notFound(TITLES.notFound)
    throw err
  }
  if (!isContainerType(view.challenge.type)) throw badRequest(TITLES.notContainer)
  return { instance: view.instance, challenge: view.challenge, container: view.container }
}

function assertCooldown(instance: GameInstance, now = Date.now()): void {
  const last = instance.lastContainerOperation
  if (last && now - last.getTime() < CONTAINER_COOLDOWN_MS) throw tooManyRequests(TITLES.tooFrequent)
}

/** The team's live containers in this game (oldest first). */
async function teamContainers(em: EntityManager, participationId: number): Promise<{ instance: GameInstance; container: Container }[]> {
  const instances = await em.find(
    GameInstance,
    { participation: participationId, container: { $ne: null } },
    { populate: ['container', 'challenge'], orderBy: { container: { startedAt: 'asc' } } },
  )
  return instances.filter((i) => isLive(i.container as Container | null)).map((i) => ({ instance: i, container: i.container as Container }))
}

/** A ContainerStart/ContainerDestroy game event row (CONTRACT §4.7, §6.3). */
function event(em: EntityManager, gameId: number, type: 'ContainerStart' | 'ContainerDestroy', challenge: Challenge, user: User, team: Team): GameEvent {
  return em.create(GameEvent, {
    game: em.getReference(Game, gameId),
    type,
    content: `${challenge.title}#${challenge.id} ${type === 'ContainerStart' ? '启动容器实例' : '销毁容器实例'}`,
    publishTime: new Date(),
    user: em.getReference(User, user.id),
    team: em.getReference(Team, team.id),
  })
}

/** The gate of the player's container endpoints: steps 1–5, ended games refused unless in practice mode. */
const playerContext = (scope: Scope, actor: Actor, gameId: number): Promise<GameContext> => gameContext(scope.em, gameId, actor.user, { refuseEnded: true })

/** `POST /api/game/{id}/container/{challengeId}` (CONTRACT §3.5.24). */
export async function startInstanceContainer(scope: Scope, actor: Actor, gameId: number, challengeId: number): Promise<Container> {
  const { em, services, events } = scope
  const user = actor.user
  const context = await playerContext(scope, actor, gameId)
  const { instance, challenge, container: existing } = await containerInstance(em, context, challengeId)
  assertCooldown(instance)
  const key = `instance:${instance.id}`
  if (!services.containers.tryClaim(key)) throw tooManyRequests(TITLES.tooFrequent)
  try {
    if (existing) {
      if (existing.status === 'Running') throw badRequest(TITLES.alreadyCreated)
      if (existing.status === 'Pending') return existing
      // A Destroyed leftover is discarded (its row only; the engine no longer runs it).
      await em.nativeDelete(Container, { id: existing.id })
    }
    if (!challenge.containerImage.trim() || !challenge.containerExposePort) throw badRequest(TITLES.createFailed)

    const game = context.game
    const participation = context.participation
    const team = participation.team as Team
    const limit = game.containerCountLimit
    let autoDestroy = false
    if (limit > 0) {
      const live = await teamContainers(em, participation.id)
      if (live.length >= limit) {
        autoDestroy = (await services.settings.get(em)).gamePolicy.autoDestroyOnLimitReached
        if (!autoDestroy) throw badRequest(TITLES.teamLimit(limit))
        for (const { container } of live.slice(0, live.length - limit + 1)) {
          try {
            await destroyContainer(services, container.id, events)
          } catch (err) {
            throw providerFailure(services, err, TITLES.createFailed, { container: container.id })
          }
        }
      }
    }

    const guid = randomUUID()
    const flag = challenge.type === 'DynamicContainer' ? (instance.dynamicFlag ?? null) : null
    let created: CreatedContainer
    try {
      created = await engineCreate(services, specFor(guid, challenge, flag, 'instance', game.id, participation))
    } catch (err) {
      throw providerFailure(services, err, TITLES.createFailed, { challenge: challenge.id, participation: participation.id, image: challenge.containerImage })
    }

    let row: Container
    let started: GameEvent
    try {
      ;({ row, started } = await em.transactional(async (tem) => {
        const locked = await tem.findOneOrFail(GameInstance, { id: instance.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
        const attached = locked.container ? await tem.findOne(Container, { id: (locked.container as Container).id }, { refresh: true }) : null
        if (isLive(attached)) throw badRequest(TITLES.alreadyCreated)
        if (limit > 0 && !autoDestroy) {
          await tem.findOneOrFail(Participation, { id: participation.id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
          if ((await teamContainers(tem, participation.id)).length >= limit) throw badRequest(TITLES.teamLimit(limit))
        }
        const row = newRow(tem, services, guid, challenge.containerImage.trim(), created, flag, null)
        locked.container = row
        locked.lastContainerOperation = new Date()
        const started = event(tem, game.id, 'ContainerStart', challenge, user, team)
        return { row, started }
      }))
    } catch (err) {
      await engineRollback(services, created.containerId)
      throw err
    } finally {
      services.containers.uncommitted.delete(guid)
    }
    services.containers.validity.delete(guid)
    publishContainerEvent(events, game.id, started, user.userName, team.name)
    publishContainerUpdate(events, { gameId: game.id, participationId: participation.id, challengeId: challenge.id }, row, 'started')
    void services.audit.success(actor, `${team.name} 启动容器实例 ${row.containerId}`)
    return row
  } finally {
    services.containers.release(key)
  }
}

/** `POST /api/game/{id}/container/{challengeId}/prolong` (CONTRACT §3.5.25). */
export async function prolongInstanceContainer(scope: Scope, actor: Actor, gameId: number, challengeId: number): Promise<Container> {
  const em = scope.em
  const context = await playerContext(scope, actor, gameId)
  const { challenge, container } = await containerInstance(em, context, challengeId)
  if (!isLive(container)) throw badRequest(TITLES.notCreated)
  if (container.expectStopAt.getTime() - Date.now() > CONTAINER_PROLONG_WINDOW_MS) throw badRequest(TITLES.cannotProlong)
  // One statement, so two concurrent prolongs inside the window both count.
  const [row] = await em.execute<{ expect_stop_at: Date }[]>(
    `update "containers" set "expect_stop_at" = "expect_stop_at" + make_interval(secs => ?) where "id" = ? returning "expect_stop_at"`,
    [CONTAINER_LIFETIME_MS / 1000, container.id],
  )
  if (!row) throw badRequest(TITLES.notCreated)
  container.expectStopAt = new Date(row.expect_stop_at)
  publishContainerUpdate(scope.events, { gameId: context.game.id, participationId: context.participation.id, challengeId: challenge.id }, container, 'prolonged')
  return container
}

/** `DELETE /api/game/{id}/container/{challengeId}` (CONTRACT §3.5.26). */
export async function stopInstanceContainer(scope: Scope, actor: Actor, gameId: number, challengeId: number): Promise<void> {
  const { em, services, events } = scope
  const user = actor.user
  const context = await playerContext(scope, actor, gameId)
  const { instance, challenge, container } = await containerInstance(em, context, challengeId)
  if (!isLive(container)) throw badRequest(TITLES.notCreated)
  assertCooldown(instance)
  const key = `instance:${instance.id}`
  if (!services.containers.tryClaim(key)) throw tooManyRequests(TITLES.tooFrequent)
  try {
    try {
      await services.containers.provider.destroy(container.containerId)
    } catch (err) {
      throw providerFailure(services, err, TITLES.destroyFailed, { container: container.id })
    }
    const team = context.participation.team as Team
    const destroyed = await em.transactional(async (tem) => {
      await tem.nativeDelete(Container, { id: container.id })
      await tem.nativeUpdate(GameInstance, { id: instance.id }, { lastContainerOperation: new Date() })
      return event(tem, context.game.id, 'ContainerDestroy', challenge, user, team)
    })
    services.containers.validity.delete(container.id)
    publishContainerEvent(events, context.game.id, destroyed, user.userName, team.name)
    publishContainerUpdate(events, { gameId: context.game.id, participationId: context.participation.id, challengeId: challenge.id }, null, 'destroyed')
    void services.audit.success(actor, `${team.name} 销毁容器实例 ${container.containerId}`)
  } finally {
    services.containers.release(key)
  }
}

// ---- any container ---------------------------------------------------------------------------

/**
 * Destroy one container by its database id: the engine first, then the row. Pushes
 * `ReceivedContainerUpdate` (destroyed) to the owning team. No game event (CONTRACT §6.3:
 * expiry, admins and automatic removals produce none). Returns false when no such row exists;
 * throws a ProviderError when the engine refuses.
 */
export async function destroyContainer(services: Services, guid: string, events: Publish = services.realtime): Promise<boolean> {
  const em = services.orm.em.fork()
  const container = await em.findOne(Container, { id: guid })
  if (!container) return false
  if (container.status !== 'Destroyed') await services.containers.provider.destroy(container.containerId)
  const owner = await em.findOne(GameInstance, { container: guid }, { populate: ['participation'] })
  await em.nativeDelete(Container, { id: guid })
  services.containers.validity.delete(guid)
  if (owner) {
    const participation = owner.participation as Participation
    const gameId = (participation.game as unknown as { id: number }).id
    const challengeId = (owner.challenge as unknown as { id: number }).id
    publishContainerUpdate(events, { gameId, participationId: participation.id, challengeId }, null, 'destroyed')
  }
  return true
}

/**
 * Destroy the container of a team's instance, if it has one — for other parts of the platform
 * (e.g. the submission checker after a correct flag). Never throws: engine or database
 * failures are logged and answered false (the reaper retries expired containers anyway).
 * `target` is an instance id or the (participation, challenge) pair.
 */
export async function destroyInstanceContainer(services: Services, target: number | { participationId: number; challengeId: number }): Promise<boolean> {
  try {
    const em = services.orm.em.fork()
    const where = typeof target === 'number' ? { id: target } : { participation: target.participationId, challenge: target.challengeId }
    const instance = await em.findOne(GameInstance, where)
    const guid = (instance?.container as { id: string } | null | undefined)?.id
    if (!guid) return false
    return await destroyContainer(services, guid)
  } catch (err) {
    services.log.error({ err, target }, 'containers: destroyInstanceContainer failed')
    return false
  }
}

// ---- admin instances (CONTRACT §3.2.18–19) ------------------------------------------------

export async function listTeamInstances(em: EntityManager): Promise<{ container: Container; team: Team; challenge: Challenge }[]> {
  const instances = await em.find(
    GameInstance,
    { container: { $ne: null, status: { $ne: 'Destroyed' } } },
    { populate: ['container', 'challenge', 'participation.team'], orderBy: { container: { startedAt: 'asc', id: 'asc' } } },
  )
  return instances.map((i) => ({ container: i.container as Container, team: (i.participation as Participation).team as Team, challenge: i.challenge as Challenge }))
}

/** `DELETE /api/admin/instances/{id}`: only the owning team hears of it (no game event). */
export async function adminDestroyInstance(scope: Scope, _actor: Actor, guid: string): Promise<void> {
  const { em, services, events } = scope
  const container = await em.findOne(Container, { id: guid })
  if (!container) throw notFound(TITLES.instanceNotFound)
  try {
    await destroyContainer(services, guid, events)
  } catch (err) {
    throw providerFailure(services, err, TITLES.instanceDestroyFailed, { container: guid })
  }
}

// ---- editors' test containers (CONTRACT §3.4.20–21) ---------------------------------------

async function editLookup(em: EntityManager, gameId: number, challengeId: number): Promise<Challenge> {
  const game = await em.findOne(Game, { id: gameId })
  if (!game) throw notFound('比赛未找到')
  const challenge = await em.findOne(Challenge, { id: challengeId, game: gameId })
  if (!challenge) throw notFound('题目未找到')
  return challenge
}

async function destroyTestContainers(em: EntityManager, services: Services, challengeId: number): Promise<void> {
  const rows = await em.find(Container, { testChallengeId: challengeId })
  for (const row of rows) await destroyContainer(services, row.id)
}

export async function createTestContainer(em: EntityManager, services: Services, gameId: number, challengeId: number): Promise<Container> {
  const challenge = await editLookup(em, gameId, challengeId)
  if (!isContainerType(challenge.type)) throw badRequest(TITLES.testWrongType)
  if (!challenge.containerImage.trim() || !challenge.containerExposePort) throw badRequest(TITLES.testConfig)
  const key = `test:${challenge.id}`
  if (!services.containers.tryClaim(key)) throw tooManyRequests(TITLES.tooFrequent)
  try {
    try {
      await destroyTestContainers(em, services, challenge.id)
    } catch (err) {
      throw providerFailure(services, err, TITLES.testCreateFailed, { challenge: challenge.id })
    }
    const guid = randomUUID()
    const flag = challenge.type === 'DynamicContainer' ? generateTestFlag(challenge.flagTemplate) : null
    let created: CreatedContainer
    try {
      created = await engineCreate(services, specFor(guid, challenge, flag, 'test', gameId))
    } catch (err) {
      throw providerFailure(services, err, TITLES.testCreateFailed, { challenge: challenge.id, image: challenge.containerImage })
    }
    try {
      const row = newRow(em, services, guid, challenge.containerImage.trim(), created, flag, challenge.id)
      await em.flush()
      services.containers.validity.delete(guid)
      return row
    } catch (err) {
      await engineRollback(services, created.containerId)
      throw err
    } finally {
      services.containers.uncommitted.delete(guid)
    }
  } finally {
    services.containers.release(key)
  }
}

export async function removeTestContainer(em: EntityManager, services: Services, gameId: number, challengeId: number): Promise<void> {
  const challenge = await editLookup(em, gameId, challengeId)
  try {
    await destroyTestContainers(em, services, challenge.id)
  } catch (err) {
    // The contract lists only the lookups: an engine failure is logged and retried by the reaper.
    services.log.warn({ err, challenge: challenge.id }, 'containers: test container destroy failed')
  }
}
