/**
 * Divisions of a game (GZ::CTF 1.7; docs/scoring.md#divisions): the editor's CRUD, v0.17.6's
 * `organizations` list mapped onto them. Every change
 * asks for a scoreboard rebuild after its commit (ranks, visibility and points follow the rules).
 */
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { GamePermission } from '@flagwave/shared/enums'
import type { DivisionRules } from '@flagwave/shared/divisions'
import type { DivisionInput } from '@flagwave/shared/schemas/games'
import { Division } from '../../entities/Division.js'
import { Participation } from '../../entities/Participation.js'
import { Challenge } from '../../entities/Challenge.js'
import type { Game } from '../../entities/Game.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import type { ReadCache } from '../../cache/readCache.js'
import { rebuildScoreboardAfterEdit } from '../games/rebuild.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

const DIVISION_NOT_FOUND = '分组未找到'
/** A join or move naming a division the game does not have. */
export const NO_SUCH_DIVISION = '分组不存在'
const DUPLICATE_NAME = '分组名称已存在'
const DIVISION_IN_USE = '分组中仍有队伍，无法删除'
const UNKNOWN_CHALLENGE = '题目未找到'

/** A division as plain data (cached, shared between requests: do not change it). */
export interface DivisionRecord extends DivisionRules {
  name: string
  inviteCode: string | null
}

const recordOf = (d: Division): DivisionRecord => ({
  id: d.id,
  name: d.name,
  inviteCode: d.inviteCode ?? null,
  defaultPermissions: d.defaultPermissions,
  challengeConfigs: d.challengeConfigs,
})

const divisionsKey = (gameId: number) => `divisions:${gameId}`

/** A game's cached divisions, without loading (undefined: not cached). */
export const peekDivisions = (cache: ReadCache, gameId: number) => cache.peek<readonly DivisionRecord[]>(divisionsKey(gameId))

/** A game's divisions, ascending id, from the read cache. */
export async function gameDivisions(em: EntityManager, gameId: number): Promise<readonly DivisionRecord[]> {
  return (await readCacheOf(em).read(divisionsKey(gameId), async () => ({
    value: (await em.find(Division, { game: gameId }, { orderBy: { id: 'asc' } })).map(recordOf),
    tags: [tags.gameDivisions(gameId), tags.game(gameId)],
  })))!
}

/** A participation's division among its game's (null without one). */
export function divisionOf(divisions: readonly DivisionRecord[], participation: Pick<Participation, 'division'>): DivisionRecord | null {
  const id = (participation.division as { id: number } | null | undefined)?.id
  return id === undefined ? null : (divisions.find((d) => d.id === id) ?? null)
}

async function findDivision(em: EntityManager, gameId: number, divisionId: number, lock = false): Promise<Division> {
  const division = await em.findOne(Division, { id: divisionId, game: gameId }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})
  if (!division) throw notFound(DIVISION_NOT_FOUND)
  return division
}

/** Overrides may only name the game's own challenges. */
async function assertChallengesOf(em: EntityManager, gameId: number, configs: DivisionInput['challengeConfigs']): Promise<void> {
  if (!configs?.length) return
  const ids = configs.map((c) => c.challengeId)
  const found = await em.count(Challenge, { id: { $in: ids }, game: gameId })
  if (found !== ids.length) throw badRequest(UNKNOWN_CHALLENGE)
}

const uniqueName = (err: unknown): never => {
  if (err instanceof UniqueConstraintViolationException) throw badRequest(DUPLICATE_NAME)
  throw err
}

/** `POST /api/edit/games/{id}/divisions`. */
export async function createDivision(scope: Scope, actor: Actor, game: Game, input: DivisionInput): Promise<DivisionRecord> {
  const division = await scope.em
    .transactional(async (tem) => {
      await assertChallengesOf(tem, game.id, input.challengeConfigs)
      const created = tem.create(Division, {
        game: game.id,
        name: input.name,
        inviteCode: input.inviteCode,
        defaultPermissions: input.defaultPermissions ?? GamePermission.All,
        challengeConfigs: input.challengeConfigs ?? [],
      })
      await tem.flush()
      return created
    })
    .catch(uniqueName)
  await rebuildScoreboardAfterEdit(scope, game.id)
  await scope.services.audit.success(actor, `为比赛 #${game.id} 创建了分组 ${division.name}`)
  return recordOf(division)
}

/** `PUT /api/edit/games/{id}/divisions/{divisionId}`: null permissions or overrides keep the stored ones. */
export async function updateDivision(scope: Scope, actor: Actor, game: Game, divisionId: number, input: DivisionInput): Promise<DivisionRecord> {
  const division = await scope.em
    .transactional(async (tem) => {
      const found = await findDivision(tem, game.id, divisionId, true)
      await assertChallengesOf(tem, game.id, input.challengeConfigs)
      found.name = input.name
      found.inviteCode = input.inviteCode
      if (input.defaultPermissions !== null) found.defaultPermissions = input.defaultPermissions
      if (input.challengeConfigs !== null) found.challengeConfigs = input.challengeConfigs
      await tem.flush()
      return found
    })
    .catch(uniqueName)
  await rebuildScoreboardAfterEdit(scope, game.id)
  await scope.services.audit.success(actor, `更新了比赛 #${game.id} 的分组 ${division.name}`)
  return recordOf(division)
}

/** `DELETE /api/edit/games/{id}/divisions/{divisionId}`: refused while participations are in it. */
export async function deleteDivision(scope: Scope, actor: Actor, game: Game, divisionId: number): Promise<void> {
  const name = await scope.em.transactional(async (tem) => {
    const found = await findDivision(tem, game.id, divisionId, true)
    if ((await tem.count(Participation, { division: found.id })) > 0) throw badRequest(DIVISION_IN_USE)
    tem.remove(found)
    await tem.flush()
    return found.name
  })
  await rebuildScoreboardAfterEdit(scope, game.id)
  await scope.services.audit.success(actor, `删除了比赛 #${game.id} 的分组 ${name}`)
}

/**
 * v0.17.6's `organizations` of a game update, inside its transaction: divisions whose names are
 * listed stay as they are, new names become divisions with every permission, and a division left
 * out is deleted — refused (400) while it has participations.
 */
export async function applyOrganizations(em: EntityManager, gameId: number, names: readonly string[]): Promise<void> {
  const existing = await em.find(Division, { game: gameId }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } })
  const listed = new Set(names)
  const dropped = existing.filter((d) => !listed.has(d.name))
  if (dropped.length > 0 && (await em.count(Participation, { division: { $in: dropped.map((d) => d.id) } })) > 0) throw badRequest(DIVISION_IN_USE)
  em.remove(dropped)
  const kept = new Set(existing.map((d) => d.name))
  for (const name of names) {
    if (!kept.has(name)) em.create(Division, { game: gameId, name, inviteCode: null, defaultPermissions: GamePermission.All, challengeConfigs: [] })
  }
  await em.flush()
}
