/**
 * Timed release on the wire (docs/challenge-rules.md#timed-release): at a scheduled challenge's
 * opening time the players watching the game — on the node whose scheduler opened it and, with
 * Redis, on another node — receive the `NewChallenge` notice and a board that lists it, with no request of
 * their own; nothing of it is pushed before the time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { rooms, type ScoreboardUpdate } from '@flagwave/shared/events'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import type { ChallengeInfo } from '@flagwave/shared/schemas/scoreboard'
import type { Game } from '../../server/src/entities/Game.js'
import type { RunningServer } from '../../server/src/server.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createPlayer, startSecondNode, type Player } from '../support/factories/play.js'
import { closeAllSockets, connect, joined, type ReceivedEvent } from '../support/sockets.js'

let server: TestServer
/** Another node on the same database, with Redis only: without it nodes share no pushes. */
let second: (RunningServer & { dataDir: string }) | null = null
let game: Game
let alice: Player

beforeAll(async () => {
  server = await startTestServer({ env: { CHALLENGE_RELEASE_POLL_MS: '300' } })
  if (inject('redisUrl')) second = await startSecondNode(server)
  game = await createGame(server, { practiceMode: false })
  alice = await createPlayer(server, game)
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  await second?.close()
  await server?.close()
})

const listed = (update: ScoreboardUpdate, id: number) =>
  'scoreboard' in update && Object.values(update.scoreboard.challenges as Record<string, ChallengeInfo[]>).flat().some((c) => c.id === id)

describe('timed release', () => {
  it('pushes NewChallenge and a board listing the challenge at its opening time, to every node, without a reload', async () => {
    const challenge = await createChallenge(server, game, { title: 'Midnight', isEnabled: false, flags: ['flag{midnight}'] })
    const player: ReceivedEvent[] = []
    const stranger: ReceivedEvent[] = []
    const stamps = new Map<ReceivedEvent, number>()
    const stamp = (list: ReceivedEvent[]) => () => stamps.set(list[list.length - 1]!, Date.now())
    const mine = await connect(server, '/hub/user', { game: game.id, client: alice.client, record: player })
    const strangersNode = second ?? server
    const theirs = await connect(strangersNode, '/hub/user', { game: game.id, record: stranger })
    mine.onAny(stamp(player))
    theirs.onAny(stamp(stranger))
    await joined(server, '/hub/user', mine, rooms.game(game.id))
    await joined(strangersNode, '/hub/user', theirs, rooms.game(game.id))

    const admin = await server.admin()
    const releaseAt = Date.now() + 2000
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { releaseTimeUtc: releaseAt })).status).toBe(200)

    for (const events of [player, stranger]) {
      await expect
        .poll(() => events.find((e) => e.event === 'ReceivedScoreboardUpdate' && listed(e.payload as ScoreboardUpdate, challenge.id)), { timeout: 8000, interval: 20 })
        .toBeTruthy()
      const isNotice = (e: ReceivedEvent) => e.event === 'ReceivedGameNotice' && (e.payload as GameNotice).type === 'NewChallenge'
      await expect.poll(() => events.find(isNotice), { timeout: 8000, interval: 20 }).toBeTruthy()
      const notice = events.find(isNotice)
      expect((notice?.payload as GameNotice).values).toEqual(['Midnight'])
      // Not before its time; and within the scheduler's timer, not the poll's, of it.
      expect(stamps.get(notice!)!).toBeGreaterThanOrEqual(releaseAt)
      expect(stamps.get(notice!)! - releaseAt).toBeLessThan(2000)
      // No board before the time listed it.
      const early = events.filter((e) => e.event === 'ReceivedScoreboardUpdate' && stamps.get(e)! < releaseAt)
      expect(early.filter((e) => listed(e.payload as ScoreboardUpdate, challenge.id))).toEqual([])
      expect(events.filter((e) => e.event === 'ReceivedGameNotice' && (e.payload as GameNotice).type === 'NewChallenge')).toHaveLength(1)
    }
  })
})
