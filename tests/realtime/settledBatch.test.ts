/**
 * A settled batch's pushes leave each socket in one write (docs/realtime.md#relay): the first
 * solves of a game's challenges are a blood notice each to every watcher of the game, and with
 * thousands of watchers one write per notice and socket held the event loop for seconds at the
 * start of an event. Settled in one batch, a watcher gets them in one write of its WebSocket, every
 * notice once, in the order they were settled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rooms } from '@flagwave/shared/events'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import { nativePool } from '../../server/src/db/pg.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer } from '../support/factories/play.js'
import { closeAllSockets, connect, joined, recordEvents, recordServerWrites, until } from '../support/sockets.js'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

describe('a settled batch', () => {
  it('leaves a watcher’s socket in one write per batch, every blood notice once and in order', async () => {
    const game = await createGame(server)
    const challenges = await Promise.all([1, 2, 3].map((i) => createChallenge(server, game, { title: `Batch ${i}`, flags: ['flag{batch}'] })))
    const players = await Promise.all([1, 2, 3].map(() => createPlayer(server, game)))
    await createInstances(
      server,
      players.map((p) => p.participation),
      challenges,
    )
    const watcher = await connect(server, '/hub/user', { game: game.id })
    await joined(server, '/hub/user', watcher, rooms.game(game.id))
    const events = recordEvents(watcher)
    const writes = recordServerWrites(server.services.realtime.server!.of('/hub/user').sockets.get(watcher.id!)!)

    // Nine first solves queued in one statement, as the submit route queues them: a checker takes
    // them in one batch (two checkers may split them).
    const pool = await nativePool(server.services.orm)
    const rows = players.flatMap((p) => challenges.map((c) => [c.id, p.participation.id, p.user.id] as const))
    await pool.query(
      `with queued as (
         insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time)
         select $1, c, p, u, 'flag{batch}', 'FlagSubmitted', now() from unnest($2::int[], $3::int[], $4::uuid[]) as t(c, p, u)
         returning id)
       select pg_notify('flagwave_submissions', id::text) from queued`,
      [game.id, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
    )

    const notices = () => events.filter((e) => e.event === 'ReceivedGameNotice').map((e) => e.payload as GameNotice)
    await until(() => notices().length >= 9, 15_000)
    await new Promise((r) => setTimeout(r, 300))
    const received = notices()
    expect(received).toHaveLength(9)
    expect(new Set(received.map((n) => n.id)).size).toBe(9)
    // Per challenge: first, second, third blood, in that order.
    for (const c of challenges) {
      expect(received.filter((n) => n.values.includes(c.title)).map((n) => n.type)).toEqual(['FirstBlood', 'SecondBlood', 'ThirdBlood'])
    }
    // One write per batch (at most one per checker), not one per notice.
    const carrying = writes.map((w) => w.text).filter((text) => text.includes('ReceivedGameNotice'))
    expect(carrying.length).toBeGreaterThanOrEqual(1)
    expect(carrying.length).toBeLessThanOrEqual(server.services.config.CHECKER_CONCURRENCY)
    expect(carrying.join('').split('"ReceivedGameNotice"').length - 1).toBe(9)
  })
})
