/**
 * The freeze on the wire (docs/realtime.md#freeze; docs/scoring.md#freeze): from the freeze on no
 * push reaching a player's socket (Socket.IO or SignalR) tells a post-freeze solve — no board
 * delta, no challenge value change, no blood notice — while the monitor hub (staff watching live)
 * keeps hearing the live board; the unfreeze pushes the final board whole, its challenge values
 * and the held notice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import type { ScoreboardUpdate } from '@flagwave/shared/events'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, settled, submit, type Player } from '../support/factories/play.js'
import { closeAllSockets, connect, type ReceivedEvent } from '../support/sockets.js'
import { connectHub, stopAllHubs } from '../support/signalr.js'

let server: TestServer
let monitor: TestUser
let game: Game
let web: Challenge
let misc: Challenge
let a: Player
let b: Player

async function until<T>(fn: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = fn()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function solve(p: Player, challenge: Challenge) {
  const id = await submit(p.client, game.id, challenge.id, 'flag{test}')
  expect(await settled(p.client, game.id, challenge.id, id)).toBe('Accepted')
}

/** Whether a push tells that team `teamId` solved `challengeId`. */
function tells(update: ScoreboardUpdate, teamId: number, challengeId: number): boolean {
  // An announcement (a large whole board, read over REST) carries no rows.
  const items = 'delta' in update ? update.delta.items : 'scoreboard' in update ? update.scoreboard.items : []
  return items.some((i) => i.id === teamId && i.challenges.some((c) => c.id === challengeId && c.type !== 'Unaccepted'))
}
const boards = (events: ReceivedEvent[]) => events.filter((e) => e.event === 'ReceivedScoreboardUpdate').map((e) => e.payload as ScoreboardUpdate)

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  monitor = await createUser(server, { role: 'Monitor' })
  game = await createGame(server)
  web = await createChallenge(server, game, { title: 'SQLi', tag: 'Web', originalScore: 500, minScoreRate: 0.25, difficulty: 5 })
  misc = await createChallenge(server, game, { title: 'Sanity', tag: 'Misc', originalScore: 100 })
  a = await createPlayer(server, game)
  b = await createPlayer(server, game)
  await createInstances(server, [a.participation, b.participation], [web, misc])
})
afterEach(async () => {
  closeAllSockets()
  await stopAllHubs()
})
afterAll(async () => {
  await server?.close()
})

describe('pushes during a freeze', () => {
  it('reaches player sockets with nothing post-freeze while the staff live room gets it; the unfreeze pushes the final board', async () => {
    await solve(a, web)
    // Warm the engine, so the freeze's rebuild is the one pushing.
    await server.client().get(`/api/game/${game.id}/scoreboard`)

    const admin = await server.admin()
    const frozeRes = await admin.post(`/api/edit/games/${game.id}/freeze`)
    expect(frozeRes.status).toBe(200)

    const player: ReceivedEvent[] = []
    const anonymous: ReceivedEvent[] = []
    const staff: ReceivedEvent[] = []
    await connect(server, '/hub/user', { game: game.id, client: a.client, record: player })
    await connect(server, '/hub/user', { game: game.id, record: anonymous })
    await connect(server, '/hub/monitor', { game: game.id, client: monitor.client, record: staff })
    const signalr = await connectHub(server, 'user', { game: game.id, client: a.client })

    await solve(b, web)
    await solve(b, misc)
    // The monitor hub hears the live board: b's solves, with the values they moved.
    await until(() => boards(staff).some((u) => tells(u, b.team.id, web.id)) && boards(staff).some((u) => tells(u, b.team.id, misc.id)))
    await until(() => staff.some((e) => e.event === 'ReceivedChallengeUpdate'))
    // Give the player sockets every chance to hear something they must not.
    await new Promise((r) => setTimeout(r, 600))
    for (const [name, events] of [
      ['player', player],
      ['anonymous', anonymous],
    ] as const) {
      expect(boards(events).filter((u) => tells(u, b.team.id, web.id) || tells(u, b.team.id, misc.id)), name).toEqual([])
      expect(
        events.filter((e) => e.event === 'ReceivedChallengeUpdate'),
        name,
      ).toEqual([])
      expect(
        events.filter((e) => e.event === 'ReceivedGameNotice'),
        name,
      ).toEqual([])
    }
    expect(signalr.events.filter((e) => /Scoreboard|Challenge|Notice/.test(e.target))).toEqual([])

    // The unfreeze: the final board whole, every challenge's values and the held blood notice.
    const fullBoard = (events: ReceivedEvent[]) => boards(events).find((u): u is Extract<ScoreboardUpdate, { scoreboard: unknown }> => 'scoreboard' in u && tells(u, b.team.id, web.id))
    expect((await admin.post(`/api/edit/games/${game.id}/unfreeze`)).status).toBe(200)
    const final = await until(() => fullBoard(player))
    const rest = (await server.client().get<ScoreboardModel>(`/api/game/${game.id}/scoreboard`)).body
    expect(final.scoreboard.frozen).toBe(false)
    expect(final.scoreboard.items.map((i) => [i.id, i.score, i.rank])).toEqual(rest.items.map((i) => [i.id, i.score, i.rank]))
    await until(() => fullBoard(anonymous))
    const values = await until(() => player.find((e) => e.event === 'ReceivedChallengeUpdate'))
    expect((values.payload as { challenges: { id: number }[] }).challenges.map((c) => c.id).sort()).toEqual([web.id, misc.id].sort())
    await until(() => player.find((e) => e.event === 'ReceivedGameNotice' && (e.payload as { type: string }).type === 'SecondBlood'))
    await until(() => signalr.events.some((e) => e.target === 'ReceivedScoreboardUpdate' && tells(e.payload as ScoreboardUpdate, b.team.id, web.id)))
  })

  it('tells the player sockets the frozen board when the freeze time passes by itself, and nothing after', async () => {
    const g = await createGame(server)
    const sanity = await createChallenge(server, g, { title: 'Sanity', tag: 'Misc', originalScore: 100 })
    const p = await createPlayer(server, g)
    await createInstances(server, [p.participation], [sanity])
    const admin = await server.admin()
    const info = (await admin.get(`/api/edit/games/${g.id}`)).body
    const freezeAt = Date.now() + 1500
    expect((await admin.put(`/api/edit/games/${g.id}`, { ...info, freezeTime: freezeAt })).status).toBe(200)
    const player: ReceivedEvent[] = []
    const staff: ReceivedEvent[] = []
    const s1: Socket = await connect(server, '/hub/user', { game: g.id, client: p.client, record: player })
    await connect(server, '/hub/monitor', { game: g.id, client: monitor.client, record: staff })
    expect(s1.connected).toBe(true)
    // The freeze time passes: the player sockets get the frozen board whole.
    const frozen = await until(() => boards(player).find((u) => 'scoreboard' in u && u.scoreboard.frozen === true), 6000)
    expect(Date.now()).toBeGreaterThanOrEqual(freezeAt)
    expect('scoreboard' in frozen && frozen.scoreboard.freezeTime).toBeTruthy()
    const id = await submit(p.client, g.id, sanity.id, 'flag{test}')
    expect(await settled(p.client, g.id, sanity.id, id)).toBe('Accepted')
    await until(() => boards(staff).some((u) => u.gameId === g.id && tells(u, p.team.id, sanity.id)))
    await new Promise((r) => setTimeout(r, 400))
    expect(boards(player).filter((u) => tells(u, p.team.id, sanity.id))).toEqual([])
    // Values pushed before the freeze (the first build's) may arrive; none tells the solve.
    const told = player.filter((e) => e.event === 'ReceivedChallengeUpdate' && (e.payload as { challenges: { solved: number }[] }).challenges.some((c) => c.solved > 0))
    expect(told).toEqual([])
    expect(staff.some((e) => e.event === 'ReceivedChallengeUpdate' && (e.payload as { challenges: { solved: number }[] }).challenges.some((c) => c.solved > 0))).toBe(true)
    // Its own result still reaches its team.
    expect(player.some((e) => e.event === 'ReceivedSubmissionResult')).toBe(true)

    // An organiser's edit that changes the scoring: the live values go to staff; players get the frozen
    // board's new version, as a difference from the frozen board they hold (its value only, docs/realtime.md#freeze).
    const heldFrozen = frozen.version
    const edited = await admin.put(`/api/edit/games/${g.id}/challenges/${sanity.id}`, { originalScore: 200 })
    expect(edited.status, edited.text).toBe(200)
    const rescored = await until(() => boards(player).find((u) => 'delta' in u && u.base === heldFrozen && u.delta.challenges.some((c) => c.id === sanity.id && c.score === 200)))
    expect('delta' in rescored && rescored.delta).toMatchObject({ items: [], challenges: [{ id: sanity.id, score: 200, solved: 0 }] })
    await until(() => staff.some((e) => e.event === 'ReceivedChallengeUpdate' && (e.payload as { challenges: { score: number }[] }).challenges.some((c) => c.score === 200)))
    await new Promise((r) => setTimeout(r, 300))
    expect(player.filter((e) => e.event === 'ReceivedChallengeUpdate' && (e.payload as { challenges: { solved: number }[] }).challenges.some((c) => c.solved > 0))).toEqual([])
    expect(boards(player).filter((u) => tells(u, p.team.id, sanity.id))).toEqual([])
  })
})
