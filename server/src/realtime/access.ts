/**
 * Which rooms of a game user-hub sockets may be in (docs/realtime.md#who-may-join-what). A socket
 * hears what its caller could read over REST at that moment: a game's notices and board are read
 * by anyone once it has started (`GET /api/game/{id}/notices`, `/scoreboard`; hidden games too,
 * as REST serves them by id), and before that only by monitors and admins; the team-private room
 * is for members of the team's accepted participation. The same rule decides on connect and when a
 * game's rights change (realtime/server.ts re-checks the sockets already in the room).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { rooms } from '@flagwave/shared/events'
import { roleRank, type Role } from '@flagwave/shared/enums'
import { nativePool } from '../db/pg.js'
import { readGame, readRegistration } from '../domain/play/gate.js'
import type { Participation } from '../entities/Participation.js'

/** Who holds a socket: enough of the signed-in user to decide; null for anonymous sockets. */
export interface Watcher {
  id: string
  role: Role
}

/** The rooms of the game each watcher may be in; null where it may not watch the game at all. */
export interface GameAccess {
  anonymous: string[] | null
  users: Map<string, string[] | null>
}

/** Monitors and admins may follow a game before it starts. */
const isStaff = (role: Role) => roleRank(role) >= roleRank('Monitor')

/** Decide for many watchers of one game at once: one query for the game, one for the teams. */
export async function gameAccess(em: EntityManager, gameId: number, watchers: Watcher[], now = Date.now()): Promise<GameAccess> {
  const conn = em.getConnection()
  const users = new Map<string, string[] | null>()
  const games = await conn.execute<{ start: Date }[]>('select start from games where id = ?', [gameId])
  if (games.length === 0) {
    for (const w of watchers) users.set(w.id, null)
    return { anonymous: null, users }
  }
  const started = new Date(games[0]!.start).getTime() <= now
  const admitted = watchers.filter((w) => w.role !== 'Banned' && (started || isStaff(w.role)))
  for (const w of watchers) users.set(w.id, null)
  for (const w of admitted) users.set(w.id, [rooms.game(gameId)])
  if (admitted.length > 0) {
    const pool = await nativePool(conn)
    const { rows } = await pool.query<{ user_id: string; id: number }>(
      `select r.user_id, p.id from registrations r join participations p on p.id = r.participation_id
        where r.game_id = $1 and p.status = 'Accepted' and r.user_id = any($2::uuid[])`,
      [gameId, admitted.map((w) => w.id)],
    )
    for (const p of rows) users.get(p.user_id)?.push(rooms.team(gameId, p.id))
  }
  return { anonymous: started ? [rooms.game(gameId)] : null, users }
}

/** The current role of each of these users (users that no longer exist are left out). */
export async function watchersOf(em: EntityManager, userIds: string[]): Promise<Watcher[]> {
  if (userIds.length === 0) return []
  const pool = await nativePool(em.getConnection())
  const { rows } = await pool.query<Watcher>('select id, role from users where id = any($1::uuid[])', [userIds])
  return rows
}

/**
 * The rooms of the game one socket's caller may join, or null when it may not watch it: the rule
 * of `gameAccess`, on the game and registration rows the REST gate reads from the read cache
 * (domain/play/gate.ts), so a thousand players connecting at an event's start cost no query each.
 */
export async function gameRoomsFor(em: EntityManager, gameId: number, user: Watcher | null, now = Date.now()): Promise<string[] | null> {
  const game = await readGame(em, gameId)
  if (!game) return null
  const started = game.start.getTime() <= now
  if (!user) return started ? [rooms.game(gameId)] : null
  if (user.role === 'Banned' || !(started || isStaff(user.role))) return null
  const participation = (await readRegistration(em, gameId, user.id))?.participation as Participation | undefined
  return participation?.status === 'Accepted' ? [rooms.game(gameId), rooms.team(gameId, participation.id)] : [rooms.game(gameId)]
}
