/**
 * A solve on the wire (docs/realtime.md#user-hub-events, #order, #room-moves; docs/scoring.md): what the game room, the solving team's
 * private room and the monitors receive, in which order, what other teams must not receive, the
 * coalesced versioned scoreboard pushes, and REST resynchronisation after a version gap.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { rooms, type ChallengeUpdate, type ScoreboardUpdate, type SubmissionResult } from '@flagwave/shared/events'
import { GameEvent, GameNotice } from '@flagwave/shared/schemas/games'
import { Submission } from '@flagwave/shared/schemas/play'
import { ScoreboardDelta, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { applyScoreboardUpdate, type HeldScoreboard } from '@flagwave/shared/scoreboardDelta'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createChallenge, createDivision, createGame } from '../support/factories/games.js'
import { GamePermission as P } from '@flagwave/shared/enums'
import { createInstance, createInstances, createPlayer, isolateIds, queueDrained, settled, submit, type Player } from '../support/factories/play.js'
import { closeAllSockets, connect, joined, recordEvents as record, until, watchGame } from '../support/sockets.js'
import { boardOf as servedBoardOf } from '../support/boards.js'

let server: TestServer
const boardOf = (gameId: number) => servedBoardOf(server, gameId)
const watch = (gameId: number, who?: { client: TestUser['client'] }, participationId?: number) => watchGame(server, gameId, who, participationId)
let monitor: TestUser



/** What a client holds after folding pushed updates into a REST board, as the SPA's store does. */
function fold(start: { version: number; board: ScoreboardModel }, updates: ScoreboardUpdate[]) {
  let held: HeldScoreboard = { version: start.version, scoreboard: start.board }
  for (const update of updates) {
    if ('delta' in update) ScoreboardDelta.parse(update.delta)
    const { outcome, ...next } = applyScoreboardUpdate(held, update)
    expect(outcome).toBe('applied')
    held = next
  }
  return { version: held.version, board: ScoreboardModel.parse(held.scoreboard) }
}

/** Let earlier pushes of a game settle: nothing queued, and the coalescing window has passed. */
async function quiet() {
  await queueDrained(server)
  await new Promise((r) => setTimeout(r, 250))
}

async function watchMonitor(gameId: number) {
  const socket = await connect(server, '/hub/monitor', { game: gameId, client: monitor.client })
  await joined(server, '/hub/monitor', socket, rooms.game(gameId))
  return { socket, events: record(socket) }
}

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  monitor = await createUser(server, { role: 'Monitor' })
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

describe('a solve on the wire', () => {
  let game: Game
  let challenge: Challenge
  let solver: Player
  let rival: Player

  beforeAll(async () => {
    game = await createGame(server)
    challenge = await createChallenge(server, game, { title: 'Warmup', tag: 'Misc', flags: ['flag{ok}'] })
    solver = await createPlayer(server, game)
    rival = await createPlayer(server, game)
    await createInstances(server, [solver.participation, rival.participation], [challenge])
  })

  it('reaches the game room, the team room and the monitors, in the contract order', async () => {
    const start = await boardOf(game.id)
    const before = start.version
    const mine = await watch(game.id, solver, solver.participation.id)
    const theirs = await watch(game.id, rival, rival.participation.id)
    const anonymous = await watch(game.id)
    const mon = await watchMonitor(game.id)

    const id = await submit(solver.client, game.id, challenge.id, 'flag{ok}')
    await until(() => mine.events.some((e) => e.event === 'ReceivedScoreboardUpdate') && mon.events.some((e) => e.event === 'ReceivedSubmissions'))
    await until(() => mine.events.some((e) => e.event === 'ReceivedChallengeUpdate'))

    // The solver's socket: blood notice → own result → scoreboard delta (+1) → challenge scores.
    expect(mine.events.map((e) => e.event)).toEqual(['ReceivedGameNotice', 'ReceivedSubmissionResult', 'ReceivedScoreboardUpdate', 'ReceivedChallengeUpdate'])
    const [notice, result, update, challengeUpdate] = mine.events.map((e) => e.payload)
    expect(GameNotice.parse(notice)).toMatchObject({ type: 'FirstBlood', content: `恭喜 ${solver.team.name} 获得 「Warmup」 的一血` })
    expect(result as SubmissionResult).toEqual({ id, challengeId: challenge.id, status: 'Accepted' })
    const sb = update as ScoreboardUpdate
    expect(sb.gameId).toBe(game.id)
    expect(sb.version).toBe(before + 1)
    // A difference from the version REST served: the new cell, the challenge's new score and first blood.
    expect(sb).toMatchObject({ base: before, delta: { items: [{ id: solver.team.id, challenges: [{ id: challenge.id, score: 525, type: 'FirstBlood' }] }] } })
    const { board } = fold(start, [sb])
    expect(board.items[0]).toMatchObject({ id: solver.team.id, score: 525, rank: 1, solvedCount: 1 })
    expect(board).toEqual((await boardOf(game.id)).board)
    expect(challengeUpdate as ChallengeUpdate).toEqual({
      gameId: game.id,
      challenges: [{ id: challenge.id, score: 500, solved: 1, bloods: [expect.objectContaining({ id: solver.team.id, name: solver.team.name })] }],
    })

    // Monitors: the FlagSubmit event, then the settled submission.
    expect(mon.events.map((e) => e.event)).toEqual(['ReceivedGameEvent', 'ReceivedSubmissions'])
    expect(GameEvent.parse(mon.events[0]!.payload)).toMatchObject({ type: 'FlagSubmit', content: `[答案正确] flag{ok}  Warmup#${challenge.id}`, user: solver.user.userName, team: solver.team.name })
    expect(Submission.parse(mon.events[1]!.payload)).toMatchObject({ answer: 'flag{ok}', status: 'Accepted', user: solver.user.userName, team: solver.team.name, challenge: 'Warmup' })

    // Another team and an anonymous big screen: the game room only.
    await until(() => theirs.events.some((e) => e.event === 'ReceivedChallengeUpdate') && anonymous.events.some((e) => e.event === 'ReceivedChallengeUpdate'))
    expect(theirs.events.map((e) => e.event)).toEqual(['ReceivedGameNotice', 'ReceivedScoreboardUpdate', 'ReceivedChallengeUpdate'])
    expect(anonymous.events.map((e) => e.event)).toEqual(['ReceivedGameNotice', 'ReceivedScoreboardUpdate', 'ReceivedChallengeUpdate'])
    expect(theirs.events[1]!.payload.version).toBe(sb.version)
  })

  it('keeps a team’s results private and masks a detected cheat', async () => {
    const g = await createGame(server)
    const box = await createChallenge(server, g, { title: 'Box', type: 'DynamicContainer', flags: [] })
    const thief = await createPlayer(server, g)
    const owner = await createPlayer(server, g)
    await createInstance(server, thief.participation, box, { dynamicFlag: 'flag{thief}' })
    await createInstance(server, owner.participation, box, { dynamicFlag: 'flag{owner}' })
    const thiefSocket = await watch(g.id, thief, thief.participation.id)
    const ownerSocket = await watch(g.id, owner, owner.participation.id)
    const mon = await watchMonitor(g.id)

    const id = await submit(thief.client, g.id, box.id, 'flag{owner}')
    expect(await settled(thief.client, g.id, box.id, id)).toBe('WrongAnswer')
    await until(() => mon.events.some((e) => e.event === 'ReceivedSubmissions') && thiefSocket.events.some((e) => e.event === 'ReceivedSubmissionResult'))
    expect(thiefSocket.events.find((e) => e.event === 'ReceivedSubmissionResult')!.payload).toEqual({ id, challengeId: box.id, status: 'WrongAnswer' })
    expect(mon.events.map((e) => [e.event, e.payload.type ?? e.payload.status])).toEqual([
      ['ReceivedGameEvent', 'FlagSubmit'],
      ['ReceivedGameEvent', 'CheatDetected'],
      ['ReceivedSubmissions', 'CheatDetected'],
    ])
    expect(mon.events[0]!.payload.content).toBe(`[答案错误] flag{owner}  Box#${box.id}`)

    // The owner's team solves its own box: the thief's socket never sees the owner's result.
    const own = await submit(owner.client, g.id, box.id, 'flag{owner}')
    expect(await settled(owner.client, g.id, box.id, own)).toBe('Accepted')
    await until(() => thiefSocket.events.some((e) => e.event === 'ReceivedScoreboardUpdate'))
    await new Promise((r) => setTimeout(r, 200))
    expect(thiefSocket.events.filter((e) => e.event === 'ReceivedSubmissionResult').map((e) => e.payload.id)).toEqual([id])
    expect(ownerSocket.events.filter((e) => e.event === 'ReceivedSubmissionResult').map((e) => e.payload.id)).toEqual([own])
  })

  it('coalesces a burst into versioned pushes at least 100 ms apart, and REST serves the pushed version', async () => {
    const g = await createGame(server)
    const c = await createChallenge(server, g, { flags: ['flag{burst}'] })
    const players: Player[] = []
    for (let i = 0; i < 8; i++) players.push(await createPlayer(server, g))
    await createInstances(server, players.map((p) => p.participation), [c])
    await quiet()
    const start = await boardOf(g.id)
    const before = start.version
    const screen = await watch(g.id)

    await Promise.all(players.map((p) => submit(p.client, g.id, c.id, 'flag{burst}')))
    await queueDrained(server)
    const pushed = () => screen.events.filter((e) => e.event === 'ReceivedScoreboardUpdate')
    const held = await until(() => {
      const folded = fold(start, pushed().map((e) => e.payload))
      return folded.board.challenges.Misc![0]!.solved === 8 ? folded : undefined
    })
    const updates = pushed()
    expect(updates.length).toBeLessThan(8)
    expect(updates.map((u) => u.payload.version)).toEqual(updates.map((_, i) => before + 1 + i))
    // Arrival times, not send times: a push delivered late (a busy test process) narrows the next gap,
    // so each gap has slack, while the span over the burst still shows the 100 ms pacing.
    for (let i = 1; i < updates.length; i++) expect(updates[i]!.at - updates[i - 1]!.at).toBeGreaterThanOrEqual(40)
    if (updates.length > 1) expect(updates.at(-1)!.at - updates[0]!.at).toBeGreaterThanOrEqual(80 * (updates.length - 1))

    // Folding the pushes gives what REST serves for the last version; a client that noticed a gap refetches it.
    const res = await server.client().get(`/api/game/${g.id}/scoreboard`)
    expect(Number(res.headers.get('x-scoreboard-version'))).toBe(held.version)
    expect(res.headers.get('etag')).toBe(`W/"${held.version}"`)
    expect(res.body).toEqual(held.board)
  })

  it('pushes the divisions live: folded pushes carry each team’s division and rank, as REST serves them (docs/scoring.md#divisions)', async () => {
    const g = await createGame(server)
    const c = await createChallenge(server, g, { flags: ['flag{div}'] })
    const students = await createDivision(server, g, { name: 'Students' })
    // Guests play without a place on the overall board.
    const guests = await createDivision(server, g, { name: 'Guests', defaultPermissions: P.All & ~P.RankOverall })
    const s1 = await createPlayer(server, g, { organization: students })
    const s2 = await createPlayer(server, g, { organization: students })
    const guest = await createPlayer(server, g, { organization: guests })
    await createInstances(server, [s1.participation, s2.participation, guest.participation], [c])
    await quiet()
    const start = await boardOf(g.id)
    const screen = await watch(g.id)

    await submit(guest.client, g.id, c.id, 'flag{div}')
    await submit(s2.client, g.id, c.id, 'flag{div}')
    await queueDrained(server)
    const held = await until(() => {
      const folded = fold(start, screen.events.filter((e) => e.event === 'ReceivedScoreboardUpdate').map((e) => e.payload))
      return folded.board.challenges.Misc![0]!.solved === 2 ? folded : undefined
    })
    const row = (p: Player) => held.board.items.find((i) => i.id === p.team.id)!
    expect([row(s2).divisionId, row(s2).divisionRank, row(s2).rank]).toEqual([students.id, 1, 1])
    expect([row(s1).divisionId, row(s1).divisionRank, row(s1).rank]).toEqual([students.id, 2, 2])
    // Not ranked overall: rank 0, first in its own division.
    expect([row(guest).divisionId, row(guest).divisionRank, row(guest).rank]).toEqual([guests.id, 1, 0])
    expect(held.board.timelines?.map((t) => t.divisionId).sort()).toEqual([0, students.id, guests.id].sort())
    const res = await server.client().get(`/api/game/${g.id}/scoreboard`)
    expect(Number(res.headers.get('x-scoreboard-version'))).toBe(held.version)
    expect(res.body).toEqual(held.board)
  })
})
