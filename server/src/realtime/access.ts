/**
 * Which rooms of a game a user-hub socket may join (docs/realtime.md#who-may-join-what): anyone may watch a game that
 * has started (big screens need no login); a signed-in user may watch any existing game; a
 * member of an accepted participation also joins the team-private room.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { rooms } from '@flagwave/shared/events'
import type { User } from '../entities/User.js'

export async function gameRoomsFor(em: EntityManager, gameId: number, user: User | null): Promise<string[] | null> {
  const conn = em.getConnection()
  const games = await conn.execute<{ start: Date }[]>('select start from games where id = ?', [gameId])
  if (games.length === 0) return null
  if (!user && new Date(games[0].start).getTime() > Date.now()) return null
  const joined = [rooms.game(gameId)]
  if (user) {
    const parts = await conn.execute<{ id: number }[]>(
      `select p.id from registrations r join participations p on p.id = r.participation_id
        where r.user_id = ? and r.game_id = ? and p.status = 'Accepted'`,
      [user.id, gameId],
    )
    for (const p of parts) joined.push(rooms.team(gameId, p.id))
  }
  return joined
}
