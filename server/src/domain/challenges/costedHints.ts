/**
 * Costed hints (docs/challenge-rules.md#costed-hints): hints that cost a team points to unlock — a
 * fixed amount, or a percentage of the challenge's value at the moment of unlocking. An unlock is
 * one row of the append-only `hint_unlocks` (unique per team, challenge and hint, so concurrent
 * clicks make one row and one deduction) with the cost and the time; it reaches the scoreboard
 * engine like a solve (the `flagwave_solves` NOTIFY inside the transaction, and at once on this
 * node), and stays deducted whether or not the team solves.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { hintCost, hintFreeAt, type CostedHint, type CostedHintState, type CostedHintsInput } from '@flagwave/shared/schemas/challengeRules'
import { toWireDate } from '@flagwave/shared/format'
import { challengeScore } from '@flagwave/shared/scoring'
import { Challenge } from '../../entities/Challenge.js'
import type { Team } from '../../entities/Team.js'
import type { Game } from '../../entities/Game.js'
import { badRequest, gameEnded, notFound } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { lockChallenge } from './lock.js'
import { assertDivisionMay, gameContext, isEnded } from '../play/gate.js'
import { assertUnlocked } from './prerequisites.js'
import { SOLVE_CHANNEL, hintUnlockMessage } from '../scoreboard/solveChannel.js'
import type { HintUnlockData } from '../scoreboard/engine.js'
import { frozenChallengeScore } from '../scoreboard/freezeView.js'
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'

const HINT_NOT_FOUND = '提示未找到'
const CHALLENGE_NOT_FOUND = '题目未找到'

/** The challenge's current dynamic value (docs/scoring.md#dynamic-score), which a percentage hint takes its share of. */
const currentScore = (c: Pick<Challenge, 'originalScore' | 'minScoreRate' | 'difficulty' | 'acceptedCount'>): number => challengeScore(c.originalScore, Number(c.minScoreRate), Number(c.difficulty), c.acceptedCount)

export const costedHintsOf = (c: Pick<Challenge, 'costedHints'>): CostedHint[] => c.costedHints ?? []

/**
 * Replace a challenge's costed hints. A hint sent with the id of an existing one keeps it (and its
 * unlocks; a changed cost applies to later unlocks only); new hints get ids above every id kept
 * or ever unlocked, so an unlock always names the hint it paid for. An unknown id is refused (400).
 */
export async function setCostedHints(scope: Scope, actor: Actor, game: Game, challenge: Challenge, model: CostedHintsInput): Promise<Challenge> {
  const updated = await scope.em.transactional(async (tx) => {
    const c = await lockChallenge(tx, challenge.id)
    const existing = costedHintsOf(c)
    const known = new Set(existing.map((h) => h.id))
    const sent = model.hints.flatMap((h) => (h.id === null ? [] : [h.id]))
    if (sent.some((id) => !known.has(id))) throw badRequest(HINT_NOT_FOUND)
    if (new Set(sent).size !== sent.length) throw badRequest('提示编号重复')
    // A deleted hint some team paid for keeps its id taken (the unlocks table remembers it).
    const used = await tx.execute<{ max: number | null }[]>('select max(hint_id) as max from hint_unlocks where challenge_id = ?', [c.id])
    let next = Math.max(0, ...known, used[0]?.max ?? 0)
    c.costedHints = model.hints.map((h) => ({ id: h.id ?? ++next, content: h.content, kind: h.kind, amount: h.amount, freeAt: h.freeAt ? toWireDate(h.freeAt) : null }))
    return c
  })
  await scope.services.audit.success(actor, `更新了比赛 #${game.id} 的题目 #${updated.id} ${updated.title} 的付费提示`)
  return updated
}

/** The team's unlocks of a challenge's costed hints: hint id → points paid. */
async function teamUnlocks(em: EntityManager, participationId: number, challengeId: number): Promise<Map<number, number>> {
  const rows = await em.execute<{ hint_id: number; cost: number }[]>('select hint_id, cost from hint_unlocks where participation_id = ? and challenge_id = ?', [
    participationId,
    challengeId,
  ])
  return new Map(rows.map((r) => [r.hint_id, r.cost]))
}

/**
 * What the team sees of each costed hint: content only once unlocked (or free for everyone since
 * its `freeAt`), the cost it paid, would pay now, or 0 once free.
 */
export function hintStates(challenge: Pick<Challenge, 'costedHints' | 'originalScore' | 'minScoreRate' | 'difficulty' | 'acceptedCount'>, unlocked: ReadonlyMap<number, number>, shown: { score?: number | null; now?: number } = {}): CostedHintState[] {
  // The value the team is shown: the frozen board's during a freeze (docs/scoring.md#freeze).
  const score = shown.score ?? currentScore(challenge)
  const now = shown.now ?? Date.now()
  return costedHintsOf(challenge).map((h) => {
    const paid = unlocked.get(h.id)
    const free = hintFreeAt(h, now)
    const open = paid !== undefined || free
    return { id: h.id, kind: h.kind, amount: h.amount, cost: paid ?? (free ? 0 : hintCost(h, score)), unlocked: open, content: open ? h.content : null, freeAt: h.freeAt ?? null }
  })
}

/**
 * When the next of a challenge's costed hints turns free after `now` (epoch ms), if any: what every
 * team sees of the challenge changes then, with no write (a kept challenge detail ends there,
 * docs/performance.md#hot-reads).
 */
export function nextHintFreeAt(challenge: Pick<Challenge, 'costedHints'>, now: number): number | undefined {
  let next: number | undefined
  for (const h of costedHintsOf(challenge)) {
    const at = h.freeAt ? Date.parse(h.freeAt) : NaN
    if (at > now && (next === undefined || at < next)) next = at
  }
  return next
}

/**
 * Unlock a costed hint for the caller's team: an accepted participation of a running game (not
 * after the end, even in practice mode: the deduction would count for nothing), a challenge the
 * team may open (division, prerequisites, enabled). Idempotent: unlocking again costs nothing more.
 * Returns the challenge's hint states after the unlock.
 */
export async function unlockHint(scope: Scope, actor: Actor, gameId: number, challengeId: number, hintId: number): Promise<CostedHintState[]> {
  const { em } = scope
  const { game, participation } = await gameContext(em, gameId, actor.user, { refuseEnded: true })
  if (isEnded(game)) throw gameEnded()
  await assertDivisionMay(em, game.id, participation.division, challengeId, 'ViewChallenge')
  const held = await em.execute<{ id: number }[]>(
    `select c.id from challenges c join instances i on i.challenge_id = c.id and i.participation_id = ?
      where c.id = ? and c.game_id = ? and c.is_enabled`,
    [participation.id, challengeId, game.id],
  )
  if (held.length === 0) throw notFound(CHALLENGE_NOT_FOUND)
  await assertUnlocked(em, game.id, participation.id, challengeId)
  // During a freeze a share is of the value the team is shown, so that its cost tells nothing of later solves.
  const frozenScore = await frozenChallengeScore(scope.services.scoreboard, game, challengeId)

  const result = await em.transactional(async (tx) => {
    // The challenge's row read under a share lock: its hints and counter are the ones of this moment.
    await tx.execute('select id from challenges where id = ? for share', [challengeId])
    const challenge = await tx.findOneOrFail(Challenge, { id: challengeId }, { refresh: true })
    const hint = costedHintsOf(challenge).find((h) => h.id === hintId)
    if (!hint) throw notFound(HINT_NOT_FOUND)
    // Free for everyone now: nothing to pay, nothing to record.
    if (hintFreeAt(hint, Date.now())) return { challenge, hint, unlock: null }
    const cost = hintCost(hint, frozenScore ?? currentScore(challenge))
    const now = new Date()
    const inserted = await tx.execute<{ id: number; t: number }[]>(
      `insert into hint_unlocks (game_id, challenge_id, participation_id, hint_id, user_id, cost, unlocked_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (participation_id, challenge_id, hint_id) do nothing
       returning id, floor(extract(epoch from unlocked_at) * 1000)::float8 as t`,
      [game.id, challengeId, participation.id, hintId, actor.user.id, cost, now],
    )
    const row = inserted[0]
    let unlock: HintUnlockData | null = null
    if (row) {
      unlock = { unlockId: row.id, participationId: participation.id, challengeId, time: row.t, cost }
      // Delivered to the engine's owner only if this commits (docs/scoring.md#engine-ownership).
      await tx.execute('select pg_notify(?, ?)', [SOLVE_CHANNEL, hintUnlockMessage(game.id, unlock)])
      // The team's challenge detail shows the hint open (docs/performance.md#hot-reads).
      await invalidateAfterCommit(tx, [tags.instance(participation.id, challengeId)])
    }
    return { challenge, hint, unlock }
  })
  if (result.unlock) {
    scope.services.scoreboard.applyHintUnlock(game.id, result.unlock)
    await scope.services.audit.success(
      actor,
      `队伍 ${(participation.team as Team).name} 花费 ${result.unlock.cost} 分解锁了比赛 #${game.id} 题目 #${challengeId} ${result.challenge.title} 的提示 #${result.hint.id}`,
    )
  }
  return hintStates(result.challenge, await teamUnlocks(em, participation.id, challengeId), { score: frozenScore })
}
