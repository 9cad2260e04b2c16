/**
 * `GET /api/game/{id}/scoreboard?at=…` (docs/scoring.md#replay): the board as it stood at a moment,
 * built from the submissions and the recorded score-changing edits. The last frame equals the live
 * board (dynamic scores, bloods, a suspended solver counted in the decay, a challenge edit and a
 * blood-bonus edit mid-game); earlier frames use the settings in force then; who may replay, the
 * freeze cap, and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { challengeScore } from '@flagwave/shared/scoring'
import { toWireDate } from '@flagwave/shared/format'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { nativePool } from '../../server/src/db/pg.js'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import { pastSolves, playersHolding, threeChallenges } from '../support/factories/history.js'
import { createUser } from '../support/factories/users.js'

const MIN = 60_000
let server: TestServer
let pool: pg.Pool
let admin: ApiClient
let monitor: ApiClient
let game: Game
let web: Challenge
let crypto: Challenge
let misc: Challenge
let players: Player[]
let suspended: Player
const T0 = Date.now()

const withoutTime = ({ updateTimeUTC: _t, updateTimeUtc: _u, ...rest }: ScoreboardModel) => rest
const replayPath = (at: string | number, id = game.id) => `/api/game/${id}/scoreboard?at=${encodeURIComponent(String(at))}`

/** Accepted submissions at `T0 + minutes`, then the stored counters as the checkers keep them. */
async function solves(list: [Player, Challenge, number][]) {
  await pastSolves(pool, game, T0, list)
  await server.services.scoreboard.rebuild(game.id)
}

async function live(): Promise<ScoreboardModel> {
  return server.services.scoreboard.get(game.id)
}

async function setGame(sql: string, params: unknown[] = []) {
  await pool.query(`update games set ${sql} where id = $1`, [game.id, ...params])
}

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  pool = await nativePool(server.services.orm)
  admin = await server.admin()
  monitor = (await createUser(server, { role: 'Monitor' })).client
  game = await createGame(server, { start: new Date(T0 - 180 * MIN), end: new Date(T0 + 60 * MIN), practiceMode: false })
  ;({ web, crypto, misc } = await threeChallenges(server, game))
  players = await playersHolding(server, game, [web, crypto, misc])
  suspended = await createPlayer(server, game, { status: 'Suspended' })
  await createInstances(server, [suspended.participation], [web, crypto, misc])
  const [a, b, c, d, e] = players as [Player, Player, Player, Player, Player]
  // Before the edit: bloods on every challenge, the suspended team counted in web's decay.
  await solves([
    [a, web, -170],
    [b, web, -160],
    [suspended, web, -150],
    [c, crypto, -140],
    [a, crypto, -130],
    [d, misc, -120],
    [e, web, -110],
    [b, misc, -100],
  ])
  // Two score-changing edits through the API, recorded with the values in force until then.
  expect((await admin.put(`/api/edit/games/${game.id}/challenges/${web.id}`, { originalScore: 800, difficulty: 4 })).status).toBe(200)
  const model = (await admin.get<Record<string, unknown>>(`/api/edit/games/${game.id}`)).body
  expect((await admin.put(`/api/edit/games/${game.id}`, { ...model, bloodBonus: (100 << 20) + (50 << 10) + 20 })).status).toBe(200)
  // Place the edits mid-game (they happened "now"; the solves below come later in game time).
  await pool.query(`update score_edits set edited_at = $2 where game_id = $1`, [game.id, new Date(T0 - 90 * MIN)])
  await solves([
    [c, web, -80],
    [d, crypto, -70],
    [e, crypto, -60],
    [a, misc, -50],
    [d, web, -40],
    [c, misc, -30],
  ])
})
afterAll(async () => {
  await server?.close()
})

describe('GET /api/game/{id}/scoreboard?at=', () => {
  it('records the values in force before each score-changing edit', async () => {
    const { rows } = await pool.query(`select challenge_id, original_score, difficulty, blood_bonus::int as blood_bonus from score_edits where game_id = $1 order by id`, [game.id])
    expect(rows).toEqual([
      { challenge_id: web.id, original_score: 500, difficulty: 2, blood_bonus: null },
      { challenge_id: null, original_score: null, difficulty: null, blood_bonus: 52459530 },
    ])
  })

  it('replays to the live board at the end, in ISO or Unix milliseconds', async () => {
    const board = await live()
    const byMs = await admin.get<ScoreboardModel>(replayPath(T0))
    expect(byMs.status).toBe(200)
    expect(byMs.headers.get('cache-control')).toBe('no-store')
    ScoreboardModel.parse(byMs.body)
    expect(withoutTime(byMs.body)).toEqual(withoutTime(JSON.parse(JSON.stringify(board)) as ScoreboardModel))
    const byIso = await monitor.get<ScoreboardModel>(replayPath(new Date(T0 + 10 * MIN).toISOString()))
    expect(withoutTime(byIso.body)).toEqual(withoutTime(byMs.body))
    expect(byIso.body.updateTimeUTC).toBe(toWireDate(T0 + 10 * MIN))
  })

  it('honours the settings in force before the edit', async () => {
    const before = (await admin.get<ScoreboardModel>(replayPath(T0 - 95 * MIN))).body
    // Web: a, b, suspended, e solved → 4 counted; original settings 500 / 0.25 / 2.
    expect(before.challenges.Web![0]).toMatchObject({ score: challengeScore(500, 0.25, 2, 4), solved: 4 })
    expect(before.bloodBonus).toBe(52459530)
    const rowA = before.items.find((i) => i.id === players[0]!.team.id)!
    expect(rowA.challenges.find((x) => x.id === web.id)!.type).toBe('FirstBlood')
    const after = (await admin.get<ScoreboardModel>(replayPath(T0 - 75 * MIN))).body
    expect(after.challenges.Web![0]).toMatchObject({ score: challengeScore(800, 0.25, 4, 5), solved: 5 })
    expect(after.bloodBonus).toBe((100 << 20) + (50 << 10) + 20)
  })

  it('shows nothing solved before the first solve, and moves ranks and the timeline with time', async () => {
    const start = (await admin.get<ScoreboardModel>(replayPath(T0 - 175 * MIN))).body
    expect(start.items.every((i) => i.score === 0)).toBe(true)
    expect(start.timeLines.all!.every((t) => t.items.length === 0)).toBe(true)
    const mid = (await admin.get<ScoreboardModel>(replayPath(T0 - 125 * MIN))).body
    expect(mid.items[0]!.id).toBe(players[0]!.team.id)
    expect(mid.timeLines.all!.find((t) => t.id === players[0]!.team.id)!.items).toHaveLength(2)
    // Seeking back and forth gives the same frames.
    const again = (await admin.get<ScoreboardModel>(replayPath(T0 - 175 * MIN))).body
    expect(withoutTime(again)).toEqual(withoutTime(start))
  })

  it('refuses players before the end and without replayPublic', async () => {
    const player = players[0]!.client
    expect(await player.get(replayPath(T0))).toMatchObject({ status: 403, body: { title: '比赛回放未开放', status: 403 } })
    await setGame('replay_public = true')
    expect((await player.get(replayPath(T0))).status).toBe(403) // not ended yet
    await setGame(`"end" = $2`, [new Date(T0 - 10 * MIN)])
    await setGame('replay_public = false')
    expect((await server.client().get(replayPath(T0))).status).toBe(403)
    await setGame('replay_public = true')
  })

  it('lets everyone replay an ended game with replayPublic, capped at the freeze while frozen', async () => {
    const anonymous = server.client()
    const full = (await anonymous.get<ScoreboardModel>(replayPath(T0))).body
    expect(withoutTime(full)).toEqual(withoutTime((await admin.get<ScoreboardModel>(replayPath(T0))).body))
    await setGame('freeze_time = $2, unfrozen_at = null', [new Date(T0 - 65 * MIN)])
    const frozen = (await players[1]!.client.get<ScoreboardModel>(replayPath(T0))).body
    const atFreeze = (await admin.get<ScoreboardModel>(replayPath(T0 - 65 * MIN - 1))).body
    expect(withoutTime(frozen)).toEqual(withoutTime(atFreeze))
    expect(withoutTime(frozen)).not.toEqual(withoutTime(full))
    // Staff are not capped.
    expect(withoutTime((await monitor.get<ScoreboardModel>(replayPath(T0))).body)).toEqual(withoutTime(full))
    // Unfrozen: the whole game again.
    await setGame('unfrozen_at = now()')
    expect(withoutTime((await anonymous.get<ScoreboardModel>(replayPath(T0))).body)).toEqual(withoutTime(full))
  })

  it('refuses unreadable moments and unknown games', async () => {
    for (const bad of ['yesterday', '2026-13-45T00:00:00Z', '1e5', '12:00', '9'.repeat(20), '2026-01-01', '']) {
      const res = await admin.get(replayPath(bad))
      expect(res.status, bad).toBe(400)
      expect(res.body).toEqual({ title: '无效的回放时间', status: 400 })
    }
    expect((await admin.get(`/api/game/${game.id}/scoreboard?at=1&at=2`)).status).toBe(400)
    expect(await admin.get(replayPath(T0, 999_999))).toMatchObject({ status: 404, body: { title: '比赛未找到', status: 404 } })
  })
})

describe('the public’s seeks are bounded', () => {
  it('a visitor gets 429 after 30 seeks a minute; staff are not limited (docs/scoring.md#replay)', async () => {
    const limited = await startTestServer({ rateLimit: true })
    try {
      const ended = await createGame(limited, { start: new Date(T0 - 120 * MIN), end: new Date(T0 - 60 * MIN), practiceMode: false, replayPublic: true })
      const path = (i: number) => `/api/game/${ended.id}/scoreboard?at=${T0 - 90 * MIN + i}`
      const visitor = limited.client()
      const statuses: number[] = []
      for (let i = 0; i < 30; i++) statuses.push((await visitor.get(path(i))).status)
      expect(statuses.every((s) => s === 200)).toBe(true)
      const refused = await visitor.get(path(99))
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({ status: 429 })
      const staff = await limited.admin()
      for (let i = 0; i < 35; i++) expect((await staff.get(path(i))).status).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
