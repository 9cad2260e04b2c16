/**
 * Timed release (docs/challenge-rules.md#timed-release): a disabled challenge with an opening time
 * is enabled at that time by the release scheduler (workers/release.ts), through the same steps as
 * an editor enabling it: its team instances, the scoreboard rebuild, a `NewChallenge` notice in a
 * running game, and the read-cache tags of the changed row (every node's cached game details
 * and hot reads drop the closed answer at the commit).
 */
import { scoringSnapshot } from './scores.js'
import { recordChallengeEdit } from '../scoreboard/replay/record.js'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { GameNotice } from '../../entities/GameNotice.js'
import { Flag } from '../../entities/Flag.js'
import { Game } from '../../entities/Game.js'
import type { Scope } from '../scope.js'
import { isGameActive } from '../games/policy.js'
import { rebuildScoreboardBeforeNotice } from '../games/rebuild.js'
import { addNotice, noticeText } from '../notices/notices.js'
import { pushNotices } from '../notices/events.js'
import { lockChallenge } from './lock.js'
import { ensureInstances } from './challenges.js'
import { isPendingRelease } from './rules.js'

/** The challenges whose opening time has come (the partial index `challenges_pending_release_idx`). */
export async function dueReleases(em: EntityManager, now: Date, max = 100): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(
    'select id from challenges where release_time_utc is not null and not is_enabled and release_time_utc <= ? order by release_time_utc, id limit ?',
    [now, max],
  )
  return rows.map((r) => r.id)
}

/** The next opening time still ahead, or null. */
export async function nextRelease(em: EntityManager): Promise<Date | null> {
  const [row] = await em.execute<{ at: Date | string | null }[]>('select min(release_time_utc) as at from challenges where release_time_utc is not null and not is_enabled')
  return row?.at ? new Date(row.at) : null
}

type Opened = { gameId: number; title: string; notices: GameNotice[] } | { gameId: number; title: string; failed: string } | null

/**
 * Open one due challenge. Idempotent under the challenge's row lock: a node that comes second
 * finds it enabled and does nothing, so no notice is ever sent twice. A challenge that lost its
 * flags since it was scheduled cannot open: its opening time is dropped and the failure audited.
 */
export async function openScheduledChallenge(scope: Scope, challengeId: number, now = new Date()): Promise<boolean> {
  const opened: Opened = await scope.em.transactional(async (tx) => {
    const c = await lockChallenge(tx, challengeId).catch(() => null)
    if (!c || !isPendingRelease(c) || c.releaseTimeUtc!.getTime() > now.getTime()) return null
    const gameId = (c.game as { id: number }).id
    if (c.type !== 'DynamicContainer' && (await tx.count(Flag, { challenge: c.id })) === 0) {
      c.releaseTimeUtc = null
      return { gameId, title: c.title, failed: '题目无 flag，不可启用' }
    }
    const before = scoringSnapshot(c)
    c.isEnabled = true
    await ensureInstances(tx, gameId, c.id)
    const game = await tx.findOneOrFail(Game, { id: gameId })
    // Replays show it disabled until now (docs/scoring.md#replay).
    if (now >= game.start) await recordChallengeEdit(tx, gameId, c.id, before, now)
    const notices = isGameActive(game, now) ? [addNotice(tx, gameId, 'NewChallenge', noticeText.newChallenge(c.title), now, c.id)] : []
    return { gameId, title: c.title, notices }
  })
  if (!opened) return false
  if ('failed' in opened) {
    await scope.services.audit.write({ message: `比赛 #${opened.gameId} 的题目 #${challengeId} ${opened.title} 未能定时开放：${opened.failed}`, level: 'Warning', status: 'Failed' })
    return false
  }
  // The board first, then the notice: a player's screen refetches its board on the NewChallenge notice.
  await rebuildScoreboardBeforeNotice(scope, opened.gameId)
  await pushNotices(scope.em, scope.events, opened.gameId, opened.notices)
  await scope.services.audit.write({ message: `比赛 #${opened.gameId} 的题目 #${challengeId} ${opened.title} 已定时开放`, status: 'Success' })
  return true
}
