/**
 * A team's own container of a challenge instance: start, prolong, destroy (the player endpoints).
 *
 * Order of work for a start: every contract check → the engine creates and starts the
 * container → one transaction inserts the Container row and attaches it to the instance
 * (re-checking, under row locks, that no other request attached one meanwhile and that the
 * team limit still holds) → the realtime pushes go out after the commit. If anything after
 * the engine step fails, the engine container is removed again: there is never a database row
 * without an engine container behind it, nor a committed instance pointing at a failed one.
 */
import { randomUUID } from 'node:crypto'
import { LockMode } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { isContainerType } from '@flagwave/shared/enums'
import { CONTAINER_COOLDOWN_MS, CONTAINER_LIFETIME_MS, CONTAINER_PROLONG_WINDOW_MS } from '@flagwave/shared/limits'
import { Container } from '../../entities/Container.js'
import type { Challenge } from '../../entities/Challenge.js'
import { Game } from '../../entities/Game.js'
import { GameEvent } from '../../entities/GameEvent.js'
import { GameInstance } from '../../entities/GameInstance.js'
import { Participation } from '../../entities/Participation.js'
import { Team } from '../../entities/Team.js'
import { User } from '../../entities/User.js'
import { AppError, badRequest, notFound, tooManyRequests } from '../../lib/errors.js'
import type { CreatedContainer } from '../../containers/provider.js'
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'
import { loadInstance } from '../play/instances.js'
import { gameContext, type GameContext } from '../play/gate.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { publishContainerEvent, publishContainerUpdate } from './events.js'
import { TITLES, containerRefusal, engineCreate, engineRollback, isLive, newRow, providerFailure, specFor } from './engine.js'
import { destroyContainer } from './lifecycle.js'

/** The instance behind the container endpoints: loadable (docs/compatibility.md#group-game-challenges-and-flags) and of a container type. */
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

/** A ContainerStart/ContainerDestroy game event row (docs/compatibility.md#game-notice-and-event-shapes; docs/realtime.md#order). */
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

/** `POST /api/game/{id}/container/{challengeId}` (docs/compatibility.md#group-game-containers). */
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
    if (!challenge.containerImage.trim() || !challenge.containerExposePort) throw containerRefusal(TITLES.createFailed, 'misconfigured')

    const game = context.game
    const participation = context.participation
    const team = participation.team as Team
    const limit = game.containerCountLimit
    if (limit > 0) {
      const live = await teamContainers(em, participation.id)
      if (live.length >= limit) {
        if (!(await services.settings.get(em)).gamePolicy.autoDestroyOnLimitReached) throw containerRefusal(TITLES.teamLimit(limit), 'limitReached')
        for (const { container } of live.slice(0, live.length - limit + 1)) {
          try {
            await destroyContainer(services, container.id, events)
          } catch (err) {
            throw providerFailure(services, err, TITLES.createFailed, { container: container.id }, actor)
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
      throw providerFailure(services, err, TITLES.createFailed, { challenge: challenge.id, participation: participation.id, image: challenge.containerImage }, actor)
    }

    let row: Container
    let started: GameEvent
    try {
      ;({ row, started } = await em.transactional(async (tem) => {
        const locked = await tem.findOneOrFail(GameInstance, { id: instance.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
        const attached = locked.container ? await tem.findOne(Container, { id: (locked.container as Container).id }, { refresh: true }) : null
        if (isLive(attached)) throw badRequest(TITLES.alreadyCreated)
        // Re-counted under the participation's lock, also after an automatic destroy: a concurrent
        // start may have taken the freed slot, and the limit holds all the same.
        if (limit > 0) {
          await tem.findOneOrFail(Participation, { id: participation.id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
          if ((await teamContainers(tem, participation.id)).length >= limit) throw containerRefusal(TITLES.teamLimit(limit), 'limitReached')
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

/** `POST /api/game/{id}/container/{challengeId}/prolong` (docs/compatibility.md#group-game-containers). */
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
  // The challenge detail shows the close time (docs/performance.md#hot-reads).
  await invalidateAfterCommit(em, [tags.instance(context.participation.id, challenge.id)])
  container.expectStopAt = new Date(row.expect_stop_at)
  publishContainerUpdate(scope.events, { gameId: context.game.id, participationId: context.participation.id, challengeId: challenge.id }, container, 'prolonged')
  return container
}

/** `DELETE /api/game/{id}/container/{challengeId}` (docs/compatibility.md#group-game-containers). */
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
      throw providerFailure(services, err, TITLES.destroyFailed, { container: container.id }, actor)
    }
    const team = context.participation.team as Team
    const destroyed = await em.transactional(async (tem) => {
      await tem.nativeDelete(Container, { id: container.id })
      await tem.nativeUpdate(GameInstance, { id: instance.id }, { lastContainerOperation: new Date() })
      await invalidateAfterCommit(tem, [tags.instance(context.participation.id, challenge.id)])
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
