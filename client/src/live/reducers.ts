/**
 * Pure folds of realtime pushes into the query data of a game screen (the board, the scoreboard,
 * the notices; the game info's review is live/participation.ts). They take the cached value and
 * return the next one (the same object when nothing changed), so
 * `queryClient.setQueryData(key, (held) => fold(held, push))` is all a push costs.
 */
import type { ChallengeUpdate, ScoreboardUpdate } from '@flagwave/shared/events'
import type { GameDetailModel, GameNotice } from '@flagwave/shared/schemas/games'
import type { ChallengeInfo, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { applyScoreboardUpdate, patchChallengeInfos, type UpdateOutcome } from '@flagwave/shared/scoreboardDelta'
import type { VersionedScoreboard } from '../api/game'

/* ---- the versioned scoreboard ---- */

/**
 * The board as a client holds it. It arrives two ways: REST (version in `X-Scoreboard-Version` /
 * `ETag`) and `ReceivedScoreboardUpdate` pushes — usually the difference from version `base`,
 * after a rebuild the whole board. A push older than what is held is dropped; a difference from a
 * version not held is a gap (the caller refetches); a whole board that skips versions is applied
 * but reported as a gap too. A REST answer replaces the board (it is the truth after a reconnect
 * or a server restart) unless it is older than a push received a moment ago (a request that raced
 * a push).
 */
export interface LiveScoreboard {
  /** -1 when unknown. */
  version: number
  scoreboard: ScoreboardModel | null
  source: 'rest' | 'push' | null
  /** When the current board arrived (ms since epoch). */
  receivedAt: number
}

/** A REST answer older than a push this recent is the stale side of a race. */
const SCOREBOARD_RACE_WINDOW_MS = 15_000

const NOTHING_HELD: LiveScoreboard = { version: -1, scoreboard: null, source: null, receivedAt: 0 }

export function scoreboardFromRest(held: LiveScoreboard | undefined, { version, scoreboard }: VersionedScoreboard, now = Date.now()): LiveScoreboard {
  if (held?.source === 'push' && version >= 0 && version < held.version && now - held.receivedAt < SCOREBOARD_RACE_WINDOW_MS) return held
  return { version, scoreboard, source: 'rest', receivedAt: now }
}

export function scoreboardFromPush(held: LiveScoreboard | undefined, update: ScoreboardUpdate, now = Date.now()): { held: LiveScoreboard; outcome: UpdateOutcome } {
  const current = held ?? NOTHING_HELD
  const next = applyScoreboardUpdate(current, update)
  if (next.outcome === 'stale' || next.scoreboard === current.scoreboard) return { held: current, outcome: next.outcome }
  return { held: { version: next.version, scoreboard: next.scoreboard, source: 'push', receivedAt: now }, outcome: next.outcome }
}

/**
 * The connection was (re)established: forget the version (a restarted server may number anew) so
 * that the next push or REST answer is taken as it comes; the board stays on screen.
 */
export const scoreboardResynced = (held: LiveScoreboard): LiveScoreboard => ({ ...held, version: -1, source: null })

/** Patch challenge scores/solves/bloods (a `ReceivedChallengeUpdate`). */
export function scoreboardChallengesPatched(held: LiveScoreboard, update: ChallengeUpdate): LiveScoreboard {
  if (!held.scoreboard) return held
  const challenges = patchChallengeInfos(held.scoreboard.challenges, update.challenges)
  return challenges === held.scoreboard.challenges ? held : { ...held, scoreboard: { ...held.scoreboard, challenges } }
}

/* ---- the team's board (`/details`) ---- */

/**
 * Fold a scoreboard in: its challenges and the team's row. A locked challenge whose title the
 * team's board hides keeps it hidden (docs/challenge-rules.md#prerequisites).
 */
export function boardWithScoreboard(details: GameDetailModel, scoreboard: ScoreboardModel): GameDetailModel {
  const row = scoreboard.items.find((item) => item.id === details.rank.id)
  const hidden = new Set(boardChallenges(details).filter((c) => c.title === '' && details.lockedChallenges.some((l) => l.id === c.id)).map((c) => c.id))
  let challenges = scoreboard.challenges
  if (hidden.size > 0) {
    challenges = Object.fromEntries(Object.entries(challenges).map(([tag, list]) => [tag, list?.map((c) => (hidden.has(c.id) ? { ...c, title: '' } : c))]))
  }
  // An unfrozen board shows every solve on the row: the list of solves behind the freeze is over.
  const { solvedAfterFreeze: _hidden, ...rest } = details
  return { ...(scoreboard.frozen ? details : rest), challenges, rank: row ?? details.rank }
}

/** Every challenge id present in a challenges-by-tag map. */
function challengeIds(map: Partial<Record<string, ChallengeInfo[]>>): Set<number> {
  const ids = new Set<number>()
  for (const list of Object.values(map)) for (const c of list ?? []) ids.add(c.id)
  return ids
}

/** Patch scores/solves/bloods; `unknown` when the update names a challenge the board does not show (refetch). */
export function boardChallengesPatched(details: GameDetailModel, update: ChallengeUpdate): { details: GameDetailModel; unknown: boolean } {
  const known = challengeIds(details.challenges)
  const challenges = patchChallengeInfos(details.challenges, update.challenges)
  return { details: challenges === details.challenges ? details : { ...details, challenges }, unknown: update.challenges.some((c) => !known.has(c.id)) }
}

/** Every challenge of the board in tag order (the map's key order is the tag order). */
export function boardChallenges(details: GameDetailModel | null | undefined): ChallengeInfo[] {
  if (!details) return []
  return Object.values(details.challenges).flatMap((list) => list ?? [])
}

/** Whether the board already lists a challenge of this title (an opening's column folded from its push). */
export const boardShowsChallenge = (details: GameDetailModel | null | undefined, title: string | undefined): boolean =>
  title !== undefined && boardChallenges(details).some((c) => c.title === title)

/** Whether my team solved a challenge (the board's row, or a result push not yet on the board). */
export function isSolvedByMe(details: GameDetailModel | null | undefined, solvedLocal: Record<number, true>, challengeId: number): boolean {
  if (solvedLocal[challengeId]) return true
  // Solved after the freeze: not on the frozen row, listed apart (docs/scoring.md#freeze).
  if (details?.solvedAfterFreeze?.includes(challengeId)) return true
  return details?.rank.challenges.some((c) => c.id === challengeId && c.type !== 'Unaccepted') ?? false
}

/* ---- notices (admin notices first, then system notices, each newest first) ---- */

/** A pushed notice missing from a REST answer this soon after is the answer's race, not a deletion. */
const NOTICE_RACE_WINDOW_MS = 30_000

const time = (notice: GameNotice) => Date.parse(notice.time)

/** The contract's order: `Normal` notices first, then the others; each group newest first. */
function sortNotices(list: GameNotice[]): GameNotice[] {
  return [...list].sort((a, b) => {
    const an = a.type === 'Normal' ? 0 : 1
    const bn = b.type === 'Normal' ? 0 : 1
    return an !== bn ? an - bn : time(b) - time(a) || b.id - a.id
  })
}

/** Insert a pushed notice; the same list when it is already known. */
export function noticesWithPush(held: GameNotice[] | undefined, notice: GameNotice): GameNotice[] {
  const list = held ?? []
  return list.some((n) => n.id === notice.id) ? list : sortNotices([notice, ...list])
}

/** A REST answer, keeping pushed notices it does not have yet (it is cached up to 30 min server-side). */
export function noticesFromRest(held: GameNotice[] | undefined, answer: GameNotice[], pushedAt: ReadonlyMap<number, number>, now = Date.now()): GameNotice[] {
  const known = new Set(answer.map((n) => n.id))
  const extra = (held ?? []).filter((n) => !known.has(n.id) && now - (pushedAt.get(n.id) ?? 0) < NOTICE_RACE_WINDOW_MS)
  return extra.length ? sortNotices([...answer, ...extra]) : answer
}
