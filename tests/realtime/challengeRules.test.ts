/**
 * Costed hints and prerequisites live (docs/challenge-rules.md; docs/realtime.md): an unlock
 * changes the team's score on every watcher's board through the same versioned pushes as a solve
 * (folded deltas equal to REST), and a solve of a prerequisite tells that team — and only that
 * team — which challenges it unlocked, after the board that shows the solve.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ChallengeUnlock, ScoreboardUpdate } from '@flagwave/shared/events'
import { GameDetailModel } from '@flagwave/shared/schemas/games'
import { applyScoreboardUpdate, type HeldScoreboard } from '@flagwave/shared/scoreboardDelta'
import { startTestServer, type TestServer } from '../support/server.js'
import type { TestUser } from '../support/factories/users.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, queueDrained, settled, submit } from '../support/factories/play.js'
import { closeAllSockets, until, watchGame } from '../support/sockets.js'
import { boardOf as servedBoardOf } from '../support/boards.js'

let server: TestServer
const boardOf = (gameId: number) => servedBoardOf(server, gameId)
const watch = (gameId: number, who?: { client: TestUser['client'] }, participationId?: number) => watchGame(server, gameId, who, participationId)

/** Let earlier pushes settle. */
async function quiet() {
  await queueDrained(server)
  await new Promise((r) => setTimeout(r, 250))
}

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

describe('a hint unlock on the wire', () => {
  it("pushes the team's new score to every board watcher, as a delta that folds to the REST board", async () => {
    const game = await createGame(server, { practiceMode: false })
    const chal = await createChallenge(server, game, { costedHints: [{ id: 1, content: 'secret', kind: 'Fixed', amount: 75 }] })
    const a = await createPlayer(server, game)
    const b = await createPlayer(server, game)
    await createInstances(server, [a.participation, b.participation], [chal])
    await quiet()
    const start = await boardOf(game.id)
    const anonymous = await watch(game.id)

    expect((await a.client.post(`/api/game/${game.id}/challenges/${chal.id}/hints/1/unlock`)).status).toBe(200)
    const update = await until(() => anonymous.events.find((e) => e.event === 'ReceivedScoreboardUpdate')?.payload as ScoreboardUpdate | undefined)
    expect('delta' in update && update.delta.items).toEqual([{ id: a.team.id, challenges: [], hintPenalty: 75 }])
    let held: HeldScoreboard = { version: start.version, scoreboard: start.board }
    const { outcome, ...next } = applyScoreboardUpdate(held, update)
    expect(outcome).toBe('applied')
    held = next
    expect(held.scoreboard!.items.find((i) => i.id === a.team.id)).toMatchObject({ score: -75, hintPenalty: 75 })
    const rest = await boardOf(game.id)
    expect(rest.version).toBe(held.version)
    expect({ ...held.scoreboard, updateTimeUTC: '', updateTimeUtc: '' }).toEqual({ ...rest.board, updateTimeUTC: '', updateTimeUtc: '' })

    // Unlocking again pushes nothing more.
    const count = anonymous.events.length
    expect((await a.client.post(`/api/game/${game.id}/challenges/${chal.id}/hints/1/unlock`)).status).toBe(200)
    await new Promise((r) => setTimeout(r, 400))
    expect(anonymous.events.slice(count).filter((e) => e.event === 'ReceivedScoreboardUpdate')).toEqual([])
  })
})

describe('a prerequisite solve on the wire', () => {
  it('tells the solving team which challenges it unlocked, after the board that shows the solve; nobody else', async () => {
    const game = await createGame(server, { practiceMode: false })
    const first = await createChallenge(server, game, { title: 'First', flags: ['flag{one}'] })
    const second = await createChallenge(server, game, { title: 'Second', prerequisites: [], lockedTitleVisible: false })
    const admin = await server.admin()
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${second.id}/prerequisites`, { prerequisites: [first.id] })).status).toBe(200)
    const p = await createPlayer(server, game)
    const q = await createPlayer(server, game)
    await createInstances(server, [p.participation, q.participation], [first, second])
    await server.services.scoreboard.rebuild(game.id) // instances were written behind the engine's back
    await quiet()
    const before = GameDetailModel.parse((await p.client.get(`/api/game/${game.id}/details`)).body)
    expect(before.lockedChallenges.map((l) => l.id)).toEqual([second.id])

    const mine = await watch(game.id, p, p.participation.id)
    const theirs = await watch(game.id, q, q.participation.id)
    expect(await settled(p.client, game.id, first.id, await submit(p.client, game.id, first.id, 'flag{one}'))).toBe('Accepted')
    const unlock = await until(() => mine.events.find((e) => e.event === 'ReceivedChallengeUnlock'))
    expect(unlock.payload as ChallengeUnlock).toEqual({ gameId: game.id, challengeIds: [second.id] })
    const board = mine.events.find((e) => e.event === 'ReceivedScoreboardUpdate')!
    expect(board.seq).toBeLessThan(unlock.seq)
    // What the client then reads: unlocked, with its title.
    const after = GameDetailModel.parse((await p.client.get(`/api/game/${game.id}/details`)).body)
    expect(after.lockedChallenges).toEqual([])
    expect(Object.values(after.challenges).flat().find((c) => c!.id === second.id)!.title).toBe('Second')

    await new Promise((r) => setTimeout(r, 300))
    expect(theirs.events.filter((e) => e.event === 'ReceivedChallengeUnlock')).toEqual([])
  })
})
