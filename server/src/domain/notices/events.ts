/**
 * Pushes of committed notices: `ReceivedGameNotice`, one per new notice, to the game room — or, for
 * a notice about a challenge some division may not view, only to the rooms of the teams that may
 * (docs/scoring.md#divisions-and-notices).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type pg from 'pg'
import type { ChallengeConfig } from '@flagwave/shared/divisions'
import { rooms } from '@flagwave/shared/events'
import type { GameNotice } from '../../entities/GameNotice.js'
import type { Publish } from '../../realtime/sink.js'
import { presentNotice } from '../../presenters/notices.js'
import { nativePool } from '../../db/pg.js'
import { noticeAudience } from './visibility.js'

/** Queue the push of notices created in this unit of work (a request's outbox sends them after the commit). */
export async function pushNotices(em: EntityManager, events: Publish, gameId: number, notices: readonly GameNotice[]): Promise<void> {
  if (notices.length === 0) return
  const pool = await nativePool(em.getConnection())
  for (const notice of notices) {
    const model = presentNotice(notice)
    for (const room of await noticeRooms(pool, gameId, notice.challenge?.id ?? null)) events.publish('user', room, 'ReceivedGameNotice', model)
  }
}

/**
 * The user-hub rooms a notice about `challengeId` (null: none) is pushed to: the game room when
 * every division may view the challenge, else the rooms of the teams that may. Plain SQL on a pool
 * or a client, so that the checkers ask inside their transaction (a blood's push then keeps its
 * place before the board's, which the commit sets off).
 */
export async function noticeRooms(db: Pick<pg.Pool | pg.PoolClient, 'query'>, gameId: number, challengeId: number | null): Promise<string[]> {
  if (challengeId === null) return [rooms.game(gameId)]
  const { rows } = await db.query<{ id: number; default_permissions: number; challenge_configs: ChallengeConfig[] }>(
    'select id, default_permissions, challenge_configs from divisions where game_id = $1',
    [gameId],
  )
  const audience = noticeAudience(
    rows.map((d) => ({ id: d.id, defaultPermissions: d.default_permissions, challengeConfigs: d.challenge_configs })),
    challengeId,
  )
  if (audience === 'everyone') return [rooms.game(gameId)]
  const teams = await db.query<{ id: number }>('select id from participations where game_id = $1 and (division_id is null or division_id = any($2::int[]))', [gameId, audience.divisions])
  return teams.rows.map(({ id }) => rooms.team(gameId, id))
}
