/**
 * Prerequisites (docs/challenge-rules.md#prerequisites): a challenge may require other challenges of
 * its game to be solved by the team first. Until then it is locked for that team: listed on the
 * board as locked (its title too, unless the editor hid it), its detail and flag submission refused
 * (403 `需要先解出前置题目`). Disabled prerequisites do not count (they cannot be solved). Edits
 * refuse cycles and challenges of other games (400).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { LockedChallenge, PrerequisitesInput, PrerequisitesModel } from '@flagwave/shared/schemas/challengeRules'
import type { ChallengeItem } from '@flagwave/shared/schemas/scoreboard'
import { Challenge } from '../../entities/Challenge.js'
import type { Game } from '../../entities/Game.js'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import type { ReadCache } from '../../cache/readCache.js'
import { badRequest, forbidden } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { lockChallenge } from './lock.js'
import { rebuildScoreboardAfterEdit } from '../games/rebuild.js'

const LOCKED = '需要先解出前置题目'

/** What the rules need of a challenge, as the read cache keeps it (plain data). */
interface RuleChallenge {
  id: number
  title: string
  enabled: boolean
  prerequisites: number[]
  lockedTitleVisible: boolean
}

/** The game's challenges that have prerequisites, and every challenge's title and state — cached until a challenge of the game changes. */
export interface GameRules {
  challenges: RuleChallenge[]
}

const rulesKey = (gameId: number) => `rules:${gameId}`

/** The game's rules as the read cache holds them, without loading (undefined: not cached). */
export const peekGameRules = (cache: ReadCache, gameId: number) => cache.peek<GameRules>(rulesKey(gameId))

/** The load of the game's rules some request started and runs now (undefined: none). */
export const gameRulesLoading = (cache: ReadCache, gameId: number) => cache.loadingNow(rulesKey(gameId))

export async function gameRules(em: EntityManager, gameId: number): Promise<GameRules> {
  return (await readCacheOf(em).read<GameRules>(rulesKey(gameId), async () => {
    const rows = await em.execute<{ id: number; title: string; is_enabled: boolean; prerequisites: number[]; locked_title_visible: boolean }[]>(
      'select id, title, is_enabled, prerequisites, locked_title_visible from challenges where game_id = ? order by id',
      [gameId],
    )
    const challenges = rows.map((r) => ({ id: r.id, title: r.title, enabled: r.is_enabled, prerequisites: r.prerequisites, lockedTitleVisible: r.locked_title_visible }))
    return { value: { challenges }, tags: [tags.gameChallenges(gameId), tags.game(gameId)] }
  }))!
}

/** The enabled prerequisites of a challenge (the ones that lock it). */
function effectivePrerequisites(rules: GameRules, challenge: RuleChallenge): RuleChallenge[] {
  if (challenge.prerequisites.length === 0) return []
  return challenge.prerequisites.flatMap((id) => {
    const p = rules.challenges.find((c) => c.id === id)
    return p && p.enabled && p.id !== challenge.id ? [p] : []
  })
}

/**
 * The challenges locked for a team whose solved challenges are `solved`, with what each still
 * requires. From the board row's cells on the board (GET …/details), so it moves with the board version.
 */
export function lockedChallenges(rules: GameRules, solved: ReadonlySet<number>): (LockedChallenge & { titleVisible: boolean })[] {
  const out: (LockedChallenge & { titleVisible: boolean })[] = []
  for (const c of rules.challenges) {
    if (!c.enabled || c.prerequisites.length === 0) continue
    const missing = effectivePrerequisites(rules, c).filter((p) => !solved.has(p.id))
    if (missing.length > 0) out.push({ id: c.id, requires: missing.map((p) => ({ id: p.id, title: p.title })), titleVisible: c.lockedTitleVisible })
  }
  return out
}

/** The solved challenges of a board row. */
export const solvedCells = (cells: readonly ChallengeItem[]): Set<number> => new Set(cells.filter((c) => c.type !== 'Unaccepted').map((c) => c.id))

/**
 * The gate of a challenge's detail, containers and flag submission: 403 `需要先解出前置题目` while
 * the team has not solved every enabled prerequisite (any accepted submission counts). No query
 * for a challenge without prerequisites.
 */
export async function assertUnlocked(em: EntityManager, gameId: number, participationId: number, challengeId: number): Promise<void> {
  const rules = await gameRules(em, gameId)
  const challenge = rules.challenges.find((c) => c.id === challengeId)
  if (!challenge || challenge.prerequisites.length === 0) return
  const required = effectivePrerequisites(rules, challenge).map((p) => p.id)
  if (required.length === 0) return
  const rows = await em.execute<{ n: string }[]>(
    `select count(distinct challenge_id) as n from submissions where participation_id = ? and status = 'Accepted' and challenge_id = any(?::int[])`,
    [participationId, `{${required.join(',')}}`],
  )
  if (Number(rows[0]?.n ?? 0) < required.length) throw lockedRefusal()
}

/** The refusal of a challenge whose prerequisites the team has not solved yet. */
export const lockedRefusal = () => forbidden(LOCKED)

export const presentPrerequisites = (c: Pick<Challenge, 'prerequisites' | 'lockedTitleVisible'>): PrerequisitesModel => ({
  prerequisites: [...(c.prerequisites ?? [])],
  lockedTitleVisible: c.lockedTitleVisible,
})

/**
 * Set a challenge's prerequisites: challenges of the same game, not itself, no cycle (400). The
 * edit rebuilds the board (the engine knows which solves unlock what) and drops the cached rules.
 */
export async function setPrerequisites(scope: Scope, actor: Actor, game: Game, challenge: Challenge, model: PrerequisitesInput): Promise<Challenge> {
  const wanted = [...new Set(model.prerequisites)].sort((a, b) => a - b)
  const updated = await scope.em.transactional(async (tx) => {
    // Edits of prerequisites are serialised per game (the game row), so two edits cannot make a cycle together.
    await tx.execute('select id from games where id = ? for no key update', [game.id])
    const c = await lockChallenge(tx, challenge.id)
    if (wanted.includes(c.id)) throw badRequest('题目不能以自己为前置')
    const all = await tx.find(Challenge, { game: game.id }, { fields: ['id', 'prerequisites'] })
    const byId = new Map(all.map((x) => [x.id, x.id === c.id ? wanted : (x.prerequisites ?? [])]))
    if (wanted.some((id) => !byId.has(id))) throw badRequest('前置题目不属于本比赛')
    if (reaches(byId, wanted, c.id)) throw badRequest('前置题目不能成环')
    c.prerequisites = wanted
    if (model.lockedTitleVisible !== null) c.lockedTitleVisible = model.lockedTitleVisible
    return c
  })
  await rebuildScoreboardAfterEdit(scope, game.id)
  await scope.services.audit.success(actor, `更新了比赛 #${game.id} 的题目 #${updated.id} ${updated.title} 的前置题目`)
  return updated
}

/** Whether `target` is reachable from `from` along prerequisite edges. */
function reaches(edges: Map<number, number[]>, from: number[], target: number): boolean {
  const seen = new Set<number>()
  const stack = [...from]
  while (stack.length > 0) {
    const id = stack.pop()!
    if (id === target) return true
    if (seen.has(id)) continue
    seen.add(id)
    stack.push(...(edges.get(id) ?? []))
  }
  return false
}
