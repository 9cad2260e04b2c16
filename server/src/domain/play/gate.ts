/**
 * The "context gate" shared by the player endpoints (docs/compatibility.md#group-game-the-context-gate): game exists, the caller
 * is registered, the participation is accepted, the game has started, and — where ended games
 * are refused — it has not ended (unless in practice mode). Checked in exactly this order.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { Game } from '../../entities/Game.js'
import { Registration } from '../../entities/Registration.js'
import { Participation } from '../../entities/Participation.js'
import { Challenge } from '../../entities/Challenge.js'
import type { User } from '../../entities/User.js'
import { Team } from '../../entities/Team.js'
import { wrap, type EntityData, type EntityDTO } from '@mikro-orm/core'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import type { ReadCache } from '../../cache/readCache.js'
import { badRequest, forbidden, gameEnded, notFound, type AppError } from '../../lib/errors.js'
import { DivisionPermissions, hasPermission } from '@flagwave/shared/divisions'
import { gameDivisions } from '../divisions/divisions.js'

export interface GameContext {
  game: Game
  participation: Participation
  registration: Registration
}

export interface GateOptions {
  /** Step 5: refuse after the end unless the game is in practice mode (all gated endpoints but write-ups). */
  refuseEnded: boolean
  /** Step 6 (flag submission): the game must have a challenge with this id (enabled or not). */
  challengeId?: number
  now?: Date
}

export const isStarted = (game: Pick<Game, 'start'>, now = new Date()) => now.getTime() >= game.start.getTime()
export const isEnded = (game: Pick<Game, 'end'>, now = new Date()) => now.getTime() > game.end.getTime()
export const isRunning = (game: Pick<Game, 'start' | 'end'>, now = new Date()) => isStarted(game, now) && !isEnded(game, now)

const NOT_REGISTERED = '您尚未参赛'
const millis = (date: Date | string) => (typeof date === 'string' ? Date.parse(date) : date.getTime())

/**
 * Steps 2–5 of the gate on a game that exists, as data: the refusal, or null when the caller may
 * pass. One rule for the route (`gateRows`) and for the hot reads, which check it on the cached
 * rows without entities (http/hotReads.ts).
 */
export function gateRefusal(
  game: { start: Date | string; end: Date | string; practiceMode: boolean },
  participation: { status: string } | null,
  refuseEnded: boolean,
  now: number,
): AppError | null {
  if (!participation) return badRequest(NOT_REGISTERED)
  if (participation.status !== 'Accepted') return badRequest('您的参赛申请尚未通过或被禁赛')
  if (now < millis(game.start)) return badRequest('比赛未开始')
  if (refuseEnded && !game.practiceMode && now > millis(game.end)) return gameEnded()
  return null
}

export async function gameContext(em: EntityManager, gameId: number, user: User, options: GateOptions): Promise<GameContext & { challenge?: Challenge }> {
  const rows = await gateRows(em, gameId, user.id, options)
  em.merge(Team, rows.registration.team)
  const participation = em.merge(Participation, rows.registration.participation)
  const registration = em.merge(Registration, rows.registration.registration)
  const game = em.merge(Game, rows.game)
  if (rows.challenge) return { game, participation, registration, challenge: em.merge(Challenge, rows.challenge) }
  return { game, participation, registration }
}

/** What the gate passed, as the read cache holds it (plain data, no entity built). */
export interface GateRows {
  game: EntityDTO<Game>
  registration: CachedRegistration
  challenge?: EntityDTO<Challenge>
}

/**
 * The gate on plain rows: the same steps in the same order, for a hot path that needs only ids and
 * flags (flag submission) and no managed entities.
 */
export async function gateRows(em: EntityManager, gameId: number, userId: string, options: GateOptions): Promise<GateRows> {
  const now = options.now ?? new Date()
  const game = await gameRow(em, gameId)
  if (!game) throw notFound('比赛未找到')
  const registration = await registrationRows(em, gameId, userId)
  const refusal = gateRefusal(game, registration?.participation ?? null, options.refuseEnded, now.getTime())
  if (refusal) throw refusal
  if (!registration) throw badRequest(NOT_REGISTERED)
  if (options.challengeId !== undefined) {
    const challenge = await challengeRow(em, gameId, options.challengeId)
    if (!challenge) throw notFound('题目未找到')
    return { game, registration, challenge }
  }
  return { game, registration }
}

const CANNOT_SUBMIT = '你所在的分组无法提交此题'

/**
 * The division rules of the gate (docs/scoring.md#divisions): a challenge the team's division may
 * not view is not found (404 `题目未找到`, as if it did not exist); one it may view but not
 * submit to is refused (403). A team without a division may do everything.
 */
export async function assertDivisionMay(em: EntityManager, gameId: number, division: unknown, challengeId: number, flag: 'ViewChallenge' | 'SubmitFlags'): Promise<void> {
  const divisionId = referenceId(division)
  if (divisionId === undefined) return
  const refusal = divisionRefusal(new DivisionPermissions(await gameDivisions(em, gameId)).of(divisionId, challengeId), flag)
  if (refusal) throw refusal
}

/** The division rules on the flags a team's division has for a challenge (All without one): the refusal, or null. */
export function divisionRefusal(permissions: number, flag: 'ViewChallenge' | 'SubmitFlags'): AppError | null {
  if (!hasPermission(permissions, 'ViewChallenge')) return notFound('题目未找到')
  if (flag === 'SubmitFlags' && !hasPermission(permissions, 'SubmitFlags')) return forbidden(CANNOT_SUBMIT)
  return null
}

/** A many-to-one as an entity or reference (`{id}`) or as the plain key a cached row holds. */
export function referenceId(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number') return (value as { id: number }).id
  return undefined
}

/*
 * The gate's rows come from the read cache (docs/architecture.md#read-cache) as plain data and are
 * merged into the request's EntityManager, so callers get managed entities as from a query. A
 * missing row is cached too (as null), under the tag its creation would carry.
 */

const gameKey = (gameId: number) => `gate:game:${gameId}`
const registrationKey = (gameId: number, userId: string) => `gate:registration:${gameId}:${userId}`

/** The cached rows behind `readGame` / `readRegistration`, without loading (undefined: not cached). */
export const peekGame = (cache: ReadCache, gameId: number) => cache.peek<EntityDTO<Game> | null>(gameKey(gameId))
export const peekRegistration = (cache: ReadCache, gameId: number, userId: string) => cache.peek<CachedRegistration | null>(registrationKey(gameId, userId))

export async function readGame(em: EntityManager, gameId: number): Promise<Game | null> {
  const dto = await gameRow(em, gameId)
  return dto ? em.merge(Game, dto) : null
}

function gameRow(em: EntityManager, gameId: number): Promise<EntityDTO<Game> | null | undefined> {
  return readCacheOf(em).read<EntityDTO<Game> | null>(gameKey(gameId), async () => {
    const game = await em.findOne(Game, { id: gameId })
    return { value: game ? wrap(game).toPOJO() : null, tags: [tags.game(gameId)] }
  })
}

interface CachedRegistration {
  registration: EntityData<Registration>
  participation: EntityData<Participation> & { id: number; status: Participation['status'] }
  team: EntityData<Team>
}

export async function readRegistration(em: EntityManager, gameId: number, userId: string): Promise<Registration | null> {
  const cached = await registrationRows(em, gameId, userId)
  if (!cached) return null
  em.merge(Team, cached.team)
  em.merge(Participation, cached.participation)
  return em.merge(Registration, cached.registration)
}

function registrationRows(em: EntityManager, gameId: number, userId: string): Promise<CachedRegistration | null | undefined> {
  return readCacheOf(em).read<CachedRegistration | null>(registrationKey(gameId, userId), async () => {
    const found = await em.findOne(Registration, { game: gameId, user: userId }, { populate: ['participation', 'participation.team'] })
    const absent = [tags.registration(gameId, userId), tags.game(gameId), tags.user(userId)]
    if (!found) return { value: null, tags: absent }
    const participation = found.participation as Participation
    const team = participation.team as Team
    return {
      value: {
        registration: { ...wrap(found).toPOJO(), participation: participation.id, game: gameId, user: userId },
        participation: { ...wrap(participation).toPOJO(), team: team.id },
        team: wrap(team).toPOJO(),
      },
      tags: [...absent, tags.participation(participation.id), tags.team(team.id)],
    }
  })
}

const challengeKey = (gameId: number, challengeId: number) => `gate:challenge:${gameId}:${challengeId}`

/** The cached row behind step 6 of the gate, without loading (undefined: not cached). */
export const peekChallenge = (cache: ReadCache, gameId: number, challengeId: number) => cache.peek<EntityDTO<Challenge> | null>(challengeKey(gameId, challengeId))

function challengeRow(em: EntityManager, gameId: number, challengeId: number): Promise<EntityDTO<Challenge> | null | undefined> {
  return readCacheOf(em).read<EntityDTO<Challenge> | null>(challengeKey(gameId, challengeId), async () => {
    const challenge = await em.findOne(Challenge, { id: challengeId, game: gameId })
    return { value: challenge ? wrap(challenge).toPOJO() : null, tags: [tags.gameChallenges(gameId), tags.game(gameId)] }
  })
}
