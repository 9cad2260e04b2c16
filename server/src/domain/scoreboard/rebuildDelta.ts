/**
 * A rebuild's version as a difference, when a difference describes it exactly
 * (docs/realtime.md#scoreboard-versions-and-gap-repair). A rebuild starts a new engine state, which
 * has no cell changes of its own to tell, so its version used to go out whole — or, for a large
 * board, announced, and every watcher read it over REST. Most rebuilds while players watch are an
 * opening (an editor enabling a challenge, a timed release): the board gains a column nobody solved,
 * which the difference's `added` carries. Here the two versions are compared and the difference is
 * derived: new challenges, changed challenge values, changed cells and hint deductions.
 *
 * Exact or nothing: the difference is folded into the previous version with the clients' own
 * `applyScoreboardDelta`, and kept only when that gives the new version member for member. Whatever
 * a difference cannot carry — a row that came or went, a renamed team or challenge, a division
 * edit, a removed challenge, the freeze view changing — fails that check, and the caller pushes the
 * whole board (or announces it) as before.
 */
import { isDeepStrictEqual } from 'node:util'
import type { ChallengeChange, ChallengeInfo, ChallengeItem, ScoreboardDelta, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { applyScoreboardDelta } from '@flagwave/shared/scoreboardDelta'

type Added = NonNullable<ScoreboardDelta['added']>

/** The difference from `before` to `after`, or null when no difference gives `after` exactly. */
export function rebuildDelta(before: ScoreboardModel, after: ScoreboardModel): ScoreboardDelta | null {
  // What a difference never changes: cheap to tell apart before anything else.
  if (before.items.length !== after.items.length || before.bloodBonus !== after.bloodBonus) return null
  if (before.frozen !== after.frozen || before.freezeTime !== after.freezeTime || before.live !== after.live) return null
  if (!isDeepStrictEqual(before.divisions, after.divisions)) return null

  const known = infosById(before)
  const challenges: ChallengeChange[] = []
  const added: Added = []
  for (const info of infosById(after).values()) {
    const was = known.get(info.id)
    if (!was) {
      added.push({ challenge: info, except: [] })
      continue
    }
    const bloods = !isDeepStrictEqual(was.bloods, info.bloods)
    if (bloods || was.score !== info.score || was.solved !== info.solved) challenges.push({ id: info.id, score: info.score, solved: info.solved, ...(bloods ? { bloods: info.bloods } : {}) })
  }
  if (known.size + added.length !== after.challengeCount) return null // a challenge left the board

  const columns = new Map(added.map((a) => [a.challenge.id, a]))
  const rows = new Map(before.items.map((row) => [row.id, row]))
  const items: ScoreboardDelta['items'] = []
  for (const row of after.items) {
    const was = rows.get(row.id)
    if (!was) return null
    const cells = new Map(was.challenges.map((cell) => [cell.id, cell]))
    const changed: ChallengeItem[] = []
    let gained = 0
    for (const cell of row.challenges) {
      if (columns.has(cell.id)) {
        gained++
        continue
      }
      const old = cells.get(cell.id)
      if (!old) return null
      if (old.type !== cell.type || old.userName !== cell.userName || old.time !== cell.time) changed.push(cell)
    }
    if (gained < columns.size) {
      const has = new Set(row.challenges.map((cell) => cell.id))
      for (const column of added) if (!has.has(column.challenge.id)) column.except.push(row.id)
    }
    const penalty = row.hintPenalty ?? 0
    const penaltyChanged = penalty !== (was.hintPenalty ?? 0)
    if (changed.length > 0 || penaltyChanged) items.push({ id: row.id, challenges: changed, ...(penaltyChanged ? { hintPenalty: penalty } : {}) })
  }

  const delta: ScoreboardDelta = { updateTimeUTC: after.updateTimeUTC, challenges, items, ...(added.length > 0 ? { added } : {}) }
  return isDeepStrictEqual(applyScoreboardDelta(before, delta), after) ? delta : null
}

function infosById(board: ScoreboardModel): Map<number, ChallengeInfo> {
  const byId = new Map<number, ChallengeInfo>()
  for (const list of Object.values(board.challenges)) for (const info of list ?? []) byId.set(info.id, info)
  return byId
}
