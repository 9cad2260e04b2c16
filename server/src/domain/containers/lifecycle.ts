/**
 * Container lifecycle rules (docs/compatibility.md#group-game-containers, #group-edit, #group-admin; docs/architecture.md#containers).
 * The team's own start, prolong and destroy are in playerContainers.ts, the engine steps in
 * engine.ts; here: destroying any container, the admins' instance list, editors' test containers.
 *
 * Destroying goes the other way from a start: the engine first (a failure leaves the database untouched and
 * answers the endpoint's 400), then the row is deleted (the instance's foreign key is set null).
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { isContainerType } from '@flagwave/shared/enums'
import { generateTestFlag } from '@flagwave/shared/flags'
import type { Services } from '../../services.js'
import { Container } from '../../entities/Container.js'
import { Challenge } from '../../entities/Challenge.js'
import { Game } from '../../entities/Game.js'
import { GameInstance } from '../../entities/GameInstance.js'
import type { Participation } from '../../entities/Participation.js'
import type { Team } from '../../entities/Team.js'
import { badRequest, notFound, tooManyRequests } from '../../lib/errors.js'
import type { Publish } from '../../realtime/sink.js'
import type { CreatedContainer } from '../../containers/provider.js'
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { publishContainerUpdate } from './events.js'
import { TITLES, containerRefusal, engineCreate, engineRollback, newRow, providerFailure, specFor } from './engine.js'

// ---- any container ---------------------------------------------------------------------------

/**
 * Destroy one container by its database id: the engine first, then the row. Pushes
 * `ReceivedContainerUpdate` (destroyed) to the owning team. No game event (docs/realtime.md#order:
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
    // The team's challenge detail showed it (docs/performance.md#hot-reads).
    await invalidateAfterCommit(em, [tags.instance(participation.id, challengeId)])
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

// ---- admin instances (docs/compatibility.md#group-admin) ------------------------------------------------

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

// ---- editors' test containers (docs/compatibility.md#group-edit) ---------------------------------------

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

export async function createTestContainer(em: EntityManager, services: Services, gameId: number, challengeId: number, actor?: Actor): Promise<Container> {
  const challenge = await editLookup(em, gameId, challengeId)
  if (!isContainerType(challenge.type)) throw badRequest(TITLES.testWrongType)
  if (!challenge.containerImage.trim() || !challenge.containerExposePort) throw containerRefusal(TITLES.testConfig, 'misconfigured')
  const key = `test:${challenge.id}`
  if (!services.containers.tryClaim(key)) throw tooManyRequests(TITLES.tooFrequent)
  try {
    try {
      await destroyTestContainers(em, services, challenge.id)
    } catch (err) {
      throw providerFailure(services, err, TITLES.testCreateFailed, { challenge: challenge.id }, actor)
    }
    const guid = randomUUID()
    const flag = challenge.type === 'DynamicContainer' ? generateTestFlag(challenge.flagTemplate) : null
    let created: CreatedContainer
    try {
      created = await engineCreate(services, specFor(guid, challenge, flag, 'test', gameId))
    } catch (err) {
      throw providerFailure(services, err, TITLES.testCreateFailed, { challenge: challenge.id, image: challenge.containerImage }, actor)
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
