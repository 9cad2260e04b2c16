/**
 * The staged reveal (docs/scoring.md#staged-reveal) over HTTP and real socket.io-client watchers:
 * the admin opens it at the frozen board, whose pending cells are every cell a team tried after the
 * freeze, right or wrong; it steps forward (one cell of the lowest-placed pending team at a time, a
 * wrong-only cell resolving to not solved) and back, a viewer's socket follows every step, a
 * reconnected viewer and a reload resume at the same step, auto-play runs to the last step, every
 * intermediate board is the engine's board over the pre-freeze solves plus the opened cells' solves,
 * and finishing lifts the freeze and leaves the live final board. Permissions and bad input.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import type { Socket } from 'socket.io-client'
import { rooms } from '@flagwave/shared/events'
import { RevealState } from '@flagwave/shared/schemas/replay'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { nativePool } from '../../server/src/db/pg.js'
import { loadGameData } from '../../server/src/domain/scoreboard/load.js'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { stopAutoPlay } from '../../server/src/domain/scoreboard/reveal/reveal.js'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import { pastSolves, pastWrongAnswers, playersHolding, threeChallenges } from '../support/factories/history.js'
import { connect, joined, nextEvent } from '../support/sockets.js'

const MIN = 60_000
const T0 = Date.now()
const FREEZE = T0 - 60 * MIN
let server: TestServer
let pool: pg.Pool
let admin: ApiClient
let game: Game
let web: Challenge
let crypto: Challenge
let misc: Challenge
let players: Player[]
let suspended: Player
const sockets: Socket[] = []

/** A board without its time and the freeze's labels (which board it is, not what it shows). */
const withoutTime = ({ updateTimeUTC: _t, updateTimeUtc: _u, live: _l, frozen: _f, freezeTime: _ft, ...rest }: ScoreboardModel) => rest
const json = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T
const edit = (action = '') => `/api/edit/games/${game.id}/reveal${action}`
const readPath = () => `/api/game/${game.id}/reveal`

async function solves(list: [Player, Challenge, number][]) {
  await pastSolves(pool, game, T0, list)
}

/** A cell of the board: `team id:challenge id`. */
const cellKey = (teamId: number, challengeId: number) => `${teamId}:${challengeId}`

/** The engine's board over the solves before the freeze plus the solves of the `opened` cells, counters counting those. */
async function expectedBoard(opened: Set<string>, all = false): Promise<ScoreboardModel> {
  const data = (await loadGameData(pool, game.id))!
  const teamOf = new Map(players.map((p) => [p.participation.id, p.team.id]))
  const shown = (pid: number, cid: number, t: number) => all || t < FREEZE || opened.has(cellKey(teamOf.get(pid) ?? -1, cid))
  data.solves = data.solves.filter((s) => shown(s.participationId, s.challengeId, s.time))
  const counts = new Map<number, number>()
  const { rows } = await pool.query<{ pid: number; cid: number; t: number }>(`select participation_id as pid, challenge_id as cid, floor(extract(epoch from submit_time) * 1000)::float8 as t from submissions where game_id = $1 and status = 'Accepted'`, [game.id])
  for (const r of rows) if (shown(r.pid, r.cid, r.t)) counts.set(r.cid, (counts.get(r.cid) ?? 0) + 1)
  data.challenges = data.challenges.map((c) => ({ ...c, acceptedCount: counts.get(c.id) ?? 0 }))
  return json(ScoreboardState.build(data).snapshot().model)
}

async function viewer(): Promise<Socket> {
  const socket = await connect(server, '/hub/user', { game: game.id })
  sockets.push(socket)
  await joined(server, '/hub/user', socket, rooms.game(game.id))
  return socket
}

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  pool = await nativePool(server.services.orm)
  admin = await server.admin()
  game = await createGame(server, { start: new Date(T0 - 180 * MIN), end: new Date(T0 - 10 * MIN), practiceMode: false, freezeTime: new Date(FREEZE), replayPublic: true })
  ;({ web, crypto, misc } = await threeChallenges(server, game))
  players = await playersHolding(server, game, [web, crypto, misc])
  suspended = await createPlayer(server, game, { status: 'Suspended' })
  await createInstances(server, [suspended.participation], [web, crypto, misc])
  const [a, b, c, d, e] = players as [Player, Player, Player, Player, Player]
  await solves([
    [a, web, -170],
    [b, web, -160],
    [c, crypto, -140],
    [a, crypto, -130],
    [d, misc, -120],
    // After the freeze: misc's second blood, first solves of two teams, a blood on a fresh pair, a suspended solver in the decay.
    [e, web, -55],
    [e, misc, -50],
    [c, web, -45],
    [b, crypto, -40],
    [suspended, web, -30],
    [d, crypto, -20],
  ])
  await pastWrongAnswers(pool, game, T0, [
    // Before the freeze, and on a cell solved before it: nothing pending.
    [b, misc, -90],
    [a, web, -30],
    // After the freeze, wrong only: a's misc and e's crypto are pending like the solved ones, and resolve to not solved.
    [a, misc, -35],
    [e, crypto, -25],
    [e, crypto, -24],
    // A wrong answer before e's solve of web.
    [e, web, -56],
  ])
  await server.services.scoreboard.rebuild(game.id)
})
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect()
})
afterAll(async () => {
  await server?.close()
})

describe('staged reveal', () => {
  it('has none open at first; only admins open it, and only while the board is frozen', async () => {
    const none = await server.client().get<RevealState>(readPath())
    expect(none.status).toBe(200)
    // Nothing tells who tried what after the freeze before the reveal opens.
    expect(RevealState.parse(none.body)).toMatchObject({ open: false, finished: false, board: null, step: 0, pending: [], last: null })
    expect(RevealState.parse((await players[0]!.client.get<RevealState>(readPath())).body)).toMatchObject({ open: false, pending: [] })
    expect((await server.client().post(edit())).status).toBe(401)
    expect((await players[0]!.client.post(edit())).status).toBe(403)
    const unfrozen = await createGame(server, { start: new Date(T0 - 60 * MIN), end: new Date(T0 - MIN) })
    expect(await admin.post(`/api/edit/games/${unfrozen.id}/reveal`)).toMatchObject({ status: 400, body: { title: '比赛未冻结', status: 400 } })
    expect(await admin.post(`/api/edit/games/${unfrozen.id}/reveal/next`)).toMatchObject({ status: 400, body: { title: '揭晓未开始', status: 400 } })
    expect((await admin.post(`/api/edit/games/999999/reveal`)).status).toBe(404)
  })

  it('opens at the frozen board and steps cell by cell from the bottom up; a viewer socket follows', async () => {
    const watcher = await viewer()
    const pushed = nextEvent<RevealState>(watcher, 'ReceivedRevealUpdate')
    const opened = await admin.post<RevealState>(edit())
    expect(opened.status).toBe(200)
    const state = RevealState.parse(opened.body)
    // One step per pending cell: b, c and d one each, a one (wrong only), e three (one wrong only).
    expect(state).toMatchObject({ open: true, step: 0, steps: 7, autoMs: null, last: null })
    expect(withoutTime((await pushed).board!)).toEqual(withoutTime(state.board!))
    // The frozen board: the solves before the freeze, as the replay at the freeze shows it.
    const frozen = (await admin.get<ScoreboardModel>(`/api/game/${game.id}/scoreboard?at=${FREEZE - 1}`)).body
    expect(withoutTime(state.board!)).toEqual(withoutTime(frozen))
    expect(withoutTime(state.board!)).toEqual(withoutTime(await expectedBoard(new Set())))
    // Every team tried something after the freeze (the suspended solver is not on the board); a's
    // wrong-only misc is as pending as a solved cell, e's cells are listed in board column order.
    const [a, b, c, d, e] = players as [Player, Player, Player, Player, Player]
    const columns = Object.values(state.board!.challenges).flatMap((list) => (list ?? []).map((ch) => ch.id))
    const pendingOf = (p: Player) => state.pending.find((x) => x.teamId === p.team.id)?.challenges
    expect(state.pending.map((p) => p.teamId).sort()).toEqual(players.map((p) => p.team.id).sort())
    expect(pendingOf(a)).toEqual([misc.id])
    expect(pendingOf(b)).toEqual([crypto.id])
    expect(pendingOf(c)).toEqual([web.id])
    expect(pendingOf(d)).toEqual([crypto.id])
    expect(pendingOf(e)).toEqual(columns.filter((id) => [web.id, misc.id, crypto.id].includes(id)))

    const cells = new Set<string>()
    const boards: ScoreboardModel[] = [state.board!]
    const wrongOnly: string[] = []
    let current = state
    for (let step = 1; step <= state.steps; step++) {
      const places = new Map(current.board!.items.map((row, i) => [row.id, i + 1]))
      const lowestPending = Math.max(...current.pending.map((p) => places.get(p.teamId)!))
      const event = nextEvent<RevealState>(watcher, 'ReceivedRevealUpdate')
      const next = RevealState.parse((await admin.post<RevealState>(edit('/next'))).body)
      expect(next.step).toBe(step)
      const last = next.last!
      // The lowest-placed team with pending cells opened the first of them, alone.
      expect(last.fromPlace).toBe(lowestPending)
      const before = current.pending.find((p) => p.teamId === last.teamId)!.challenges
      expect(last.challenges).toEqual([before[0]])
      expect(next.pending.find((p) => p.teamId === last.teamId)?.challenges ?? []).toEqual(before.slice(1))
      const id = last.challenges[0]!
      cells.add(cellKey(last.teamId!, id))
      const cell = next.board!.items.find((row) => row.id === last.teamId)!.challenges.find((x) => x.id === id)!
      if (last.solved.length === 0) {
        // Wrong answers only: the cell resolves to not solved, the team stays where it was.
        wrongOnly.push(cellKey(last.teamId!, id))
        expect(cell.type).toBe('Unaccepted')
        expect(last.bloods).toEqual([])
        if (step < state.steps) expect([last.toPlace, last.toScore]).toEqual([last.fromPlace, last.fromScore])
      } else {
        expect(last.solved).toEqual([id])
        expect(cell.type).not.toBe('Unaccepted')
        if (step < state.steps) expect(last.toPlace).toBeLessThanOrEqual(last.fromPlace)
      }
      // e's misc solve after the freeze is misc's second blood, highlighted in its step.
      if (last.teamId === e.team.id && id === misc.id) expect(last.bloods).toEqual([misc.id])
      expect(withoutTime((await event).board!)).toEqual(withoutTime(next.board!))
      expect(withoutTime(next.board!)).toEqual(withoutTime(await expectedBoard(cells, step === state.steps)))
      boards.push(next.board!)
      current = next
      if (step === 1) {
        // Back and forth gives the same boards.
        const back = RevealState.parse((await admin.post<RevealState>(edit('/back'))).body)
        expect(back.step).toBe(0)
        expect(withoutTime(back.board!)).toEqual(withoutTime(state.board!))
        const again = RevealState.parse((await admin.post<RevealState>(edit('/next'))).body)
        expect(withoutTime(again.board!)).toEqual(withoutTime(next.board!))
      }
    }
    expect(wrongOnly.sort()).toEqual([cellKey(a.team.id, misc.id), cellKey(e.team.id, crypto.id)].sort())
    expect(current.pending).toEqual([])
    // Back down to step 2, each board as it was on the way up.
    for (let step = state.steps - 1; step >= 2; step--) {
      const back = RevealState.parse((await admin.post<RevealState>(edit('/back'))).body)
      expect(back.step).toBe(step)
      expect(withoutTime(back.board!)).toEqual(withoutTime(boards[step]!))
    }
  })

  it('resumes after a reconnect and a reload, and opening again keeps the step', async () => {
    const again = RevealState.parse((await admin.post<RevealState>(edit())).body)
    expect(again.step).toBe(2)
    const watcher = await viewer()
    const read = RevealState.parse((await server.client().get<RevealState>(readPath())).body)
    expect(read.step).toBe(2)
    expect(withoutTime(read.board!)).toEqual(withoutTime(again.board!))
    const event = nextEvent<RevealState>(watcher, 'ReceivedRevealUpdate')
    await admin.post(edit('/next'))
    expect((await event).step).toBe(3)
  })

  it('auto-plays to the last step and pauses there; refuses bad intervals', async () => {
    for (const bad of [10, 60_001, 1.5, 'fast', true]) {
      expect(await admin.put(edit('/auto'), { intervalMs: bad }), String(bad)).toMatchObject({ status: 400, body: { title: '自动播放间隔无效', status: 400 } })
    }
    expect((await admin.put(edit('/auto'), {})).status).toBe(400)
    expect((await players[0]!.client.put(edit('/auto'), { intervalMs: 500 })).status).toBe(403)
    const watcher = await viewer()
    const seen: RevealState[] = []
    watcher.on('ReceivedRevealUpdate', (s: RevealState) => seen.push(s))
    const started = RevealState.parse((await admin.put<RevealState>(edit('/auto'), { intervalMs: 250 })).body)
    expect(started.autoMs).toBe(250)
    // After the first step the node playing it loses its timer, as in a restart: the sweep of the
    // nodes (workers/reveal.ts) takes the overdue reveal over and plays on, one step at a time.
    while (!seen.some((s) => s.step > started.step)) await new Promise((r) => setTimeout(r, 20))
    stopAutoPlay(server.services)
    const deadline = Date.now() + 15_000
    while (!seen.some((s) => s.step === s.steps && s.autoMs === null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    const last = seen.at(-1)!
    expect(last).toMatchObject({ step: 7, steps: 7, autoMs: null, pending: [] })
    // Every step once, in order: the timer and the sweep never both stepped.
    expect(seen.map((s) => s.step).filter((step) => step > started.step)).toEqual(Array.from({ length: 7 - started.step }, (_, i) => started.step + 1 + i))
    // The last step holds every solve: the live final board.
    expect(withoutTime(last.board!)).toEqual(withoutTime(await expectedBoard(new Set(), true)))
    // The live board, as staff read it while the public board is frozen (docs/scoring.md#freeze).
    expect(withoutTime(last.board!)).toEqual(withoutTime(json((await server.services.scoreboard.liveSnapshot(game.id))!.model)))
    expect((await admin.post<RevealState>(edit('/next'))).body.step).toBe(7)
  })

  it('finishes by lifting the freeze, on every screen', async () => {
    const watcher = await viewer()
    const event = nextEvent<RevealState>(watcher, 'ReceivedRevealUpdate')
    const finished = RevealState.parse((await admin.post<RevealState>(edit('/finish'))).body)
    expect(finished).toMatchObject({ open: false, finished: true, board: null })
    expect((await event).finished).toBe(true)
    const { rows } = await pool.query<{ unfrozen: boolean }>(`select unfrozen_at is not null as unfrozen from games where id = $1`, [game.id])
    expect(rows[0]!.unfrozen).toBe(true)
    expect(RevealState.parse((await server.client().get<RevealState>(readPath())).body)).toMatchObject({ open: false, finished: true })
    expect(await admin.post(edit('/next'))).toMatchObject({ status: 400, body: { title: '揭晓未开始', status: 400 } })
    // Players now replay the whole game (the freeze no longer caps them).
    const replay = (await players[0]!.client.get<ScoreboardModel>(`/api/game/${game.id}/scoreboard?at=${T0}`)).body
    expect(withoutTime(replay)).toEqual(withoutTime(json(await server.services.scoreboard.get(game.id))))
  })
})
