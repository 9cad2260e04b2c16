/**
 * Monitor reads (docs/compatibility.md#group-game-monitors): events (hideContainer, paging, newest first),
 * submissions (status filter, `count` ≤ 0 = all, newest first) and cheat reports, with the
 * shared "game exists and has started" checks and the Monitor role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { GameEvent } from '@flagwave/shared/schemas/games'
import { CheatInfoModel, Submission } from '@flagwave/shared/schemas/play'
import { toWireDate } from '@flagwave/shared/format'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { createCheatInfo, createEvent, createSubmission } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import type { Participation } from '../../server/src/entities/Participation.js'
import type { Team } from '../../server/src/entities/Team.js'

let server: TestServer
let admin: ApiClient
let monitor: ApiClient
let player: TestUser
let team: Team
let otherTeam: Team
let game: Game
let future: Game
let challenge: Challenge
let part: Participation
let otherPart: Participation
const HOUR = 3600_000

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
  monitor = (await createUser(server, { role: 'Monitor' })).client
  player = await createUser(server)
  const other = await createUser(server)
  team = await createTeam(server, player.user)
  otherTeam = await createTeam(server, other.user)
  game = await createGame(server)
  future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
  challenge = await createChallenge(server, game, { title: 'Pwn me' })
  part = await createParticipation(server, game, team, [player.user])
  otherPart = await createParticipation(server, game, otherTeam, [other.user])
})
afterAll(async () => {
  await server?.close()
})

const expectError = (res: { status: number; body: unknown }, status: number, title: string, bodyStatus = status) =>
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status: bodyStatus } })

async function expectGameChecks(path: (gameId: number) => string): Promise<void> {
  expectError(await monitor.get(path(999999)), 404, '比赛未找到')
  expectError(await monitor.get(path(future.id)), 400, '比赛未开始')
  expect((await server.client().get(path(game.id))).body).toEqual({ title: '请先登录', status: 401 })
  expect((await player.client.get(path(game.id))).body).toEqual({ title: '无权访问', status: 403 })
  expect((await admin.get(path(game.id))).status).toBe(200)
}

describe('GET /api/game/{id}/events', () => {
  it('lists events newest first, with user and team names; hideContainer drops container events; pages', async () => {
    const t = Date.now()
    const e1 = await createEvent(server, game, { type: 'FlagSubmit', content: '[答案正确] flag{x}  Pwn me#1', publishTime: new Date(t - 40_000), user: player.user, teamId: team.id })
    const e2 = await createEvent(server, game, { type: 'ContainerStart', publishTime: new Date(t - 30_000), user: player.user, teamId: team.id })
    const e3 = await createEvent(server, game, { type: 'CheatDetected', publishTime: new Date(t - 20_000) })
    const e4 = await createEvent(server, game, { type: 'ContainerDestroy', publishTime: new Date(t - 10_000) })
    const all = await monitor.get(`/api/game/${game.id}/events`)
    expect(all.status).toBe(200)
    const list = z.array(GameEvent).parse(all.body)
    expect(list.map((e) => e.time)).toEqual([e4, e3, e2, e1].map((e) => toWireDate(e.publishTime)))
    expect(list[3]).toEqual({
      type: 'FlagSubmit',
      content: e1.content,
      time: toWireDate(e1.publishTime),
      user: player.user.userName,
      team: team.name,
      values: ['Accepted', 'flag{x}', 'Pwn me', '1'],
    })
    expect(list[1]).toMatchObject({ type: 'CheatDetected', user: '', team: '' })
    const hidden = z.array(GameEvent).parse((await monitor.get(`/api/game/${game.id}/events?hideContainer=true`)).body)
    expect(hidden.map((e) => e.type)).toEqual(['CheatDetected', 'FlagSubmit'])
    const page = z.array(GameEvent).parse((await monitor.get(`/api/game/${game.id}/events?count=2&skip=1&hideContainer=false`)).body)
    expect(page.map((e) => e.type)).toEqual(['CheatDetected', 'ContainerStart'])
  })

  it('applies the game checks and refuses bad query values', async () => {
    await expectGameChecks((id) => `/api/game/${id}/events`)
    expectError(await monitor.get(`/api/game/${game.id}/events?hideContainer=maybe`), 400, "The value 'maybe' is not valid.")
    expectError(await monitor.get(`/api/game/${game.id}/events?skip=x`), 400, "The value 'x' is not valid.")
  })
})

describe('GET /api/game/{id}/submissions and /cheatinfo', () => {
  let subs: Awaited<ReturnType<typeof createSubmission>>[] = []

  beforeAll(async () => {
    const t = Date.now()
    subs = [
      await createSubmission(server, game, challenge, part, player.user, { status: 'WrongAnswer', answer: 'flag{no}', submitTime: new Date(t - 50_000) }),
      await createSubmission(server, game, challenge, part, player.user, { status: 'Accepted', answer: 'flag{yes}', submitTime: new Date(t - 40_000) }),
      await createSubmission(server, game, challenge, otherPart, null, { status: 'CheatDetected', answer: 'flag{stolen}', submitTime: new Date(t - 30_000) }),
      await createSubmission(server, game, challenge, part, player.user, { status: 'FlagSubmitted', answer: 'flag{wait}', submitTime: new Date(t - 20_000) }),
    ]
  })

  it('lists submissions newest first with user, team and challenge title', async () => {
    const res = await monitor.get(`/api/game/${game.id}/submissions`)
    expect(res.status).toBe(200)
    const list = z.array(Submission).parse(res.body)
    expect(list.map((s) => s.answer)).toEqual(['flag{wait}', 'flag{stolen}', 'flag{yes}', 'flag{no}'])
    expect(list[1]).toEqual({ answer: 'flag{stolen}', status: 'CheatDetected', time: toWireDate(subs[2]!.submitTime), user: '', team: otherTeam.name, challenge: 'Pwn me' })
    expect(list[2]).toMatchObject({ status: 'Accepted', user: player.user.userName, team: team.name })
  })

  it('filters by status (name in any case or integer) and pages; count ≤ 0 returns all and ignores skip', async () => {
    const accepted = z.array(Submission).parse((await monitor.get(`/api/game/${game.id}/submissions?type=accepted`)).body)
    expect(accepted.map((s) => s.answer)).toEqual(['flag{yes}'])
    expect((await monitor.get(`/api/game/${game.id}/submissions?type=2`)).body.map((s: { answer: string }) => s.answer)).toEqual(['flag{no}'])
    expect((await monitor.get(`/api/game/${game.id}/submissions?count=2&skip=1`)).body.map((s: { answer: string }) => s.answer)).toEqual(['flag{stolen}', 'flag{yes}'])
    expect((await monitor.get(`/api/game/${game.id}/submissions?count=0&skip=3`)).body).toHaveLength(4)
    expect((await monitor.get(`/api/game/${game.id}/submissions?count=-1`)).body).toHaveLength(4)
  })

  it('refuses an invalid status filter and applies the game checks', async () => {
    expectError(await monitor.get(`/api/game/${game.id}/submissions?type=Bogus`), 400, "The value 'Bogus' is not valid.")
    expectError(await monitor.get(`/api/game/${game.id}/submissions?type=7`), 400, "The value '7' is not valid.")
    await expectGameChecks((id) => `/api/game/${id}/submissions`)
  })

  it('lists cheat reports with both participations and the submission', async () => {
    expect((await monitor.get(`/api/game/${game.id}/cheatinfo`)).body).toEqual([])
    await createCheatInfo(server, game, subs[2]!, otherPart, part)
    const res = await monitor.get(`/api/game/${game.id}/cheatinfo`)
    expect(res.status).toBe(200)
    const list = z.array(CheatInfoModel).parse(res.body)
    expect(list).toEqual([
      {
        ownedTeam: { id: part.id, team: { id: team.id, name: team.name, avatar: null }, status: 'Accepted', organization: null },
        submitTeam: { id: otherPart.id, team: { id: otherTeam.id, name: otherTeam.name, avatar: null }, status: 'Accepted', organization: null },
        submission: { answer: 'flag{stolen}', status: 'CheatDetected', time: toWireDate(subs[2]!.submitTime), user: '', team: otherTeam.name, challenge: 'Pwn me' },
      },
    ])
    await expectGameChecks((id) => `/api/game/${id}/cheatinfo`)
  })
})
