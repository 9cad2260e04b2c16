/**
 * Flag submission and its status (docs/compatibility.md#group-game-challenges-and-flags, #group-game-the-context-gate, #dynamic-flags; docs/scoring.md#submission-queue): the
 * durable queue, judging, blood notices, cheat detection, validation, the context gate and the
 * Submit rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { countRows, createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { createTeam } from '../support/factories/teams.js'
import { createInstance, createPlayer, isolateIds, queueDrained, settled, statusPath, submit, submitPath, type Player } from '../support/factories/play.js'

let server: TestServer
let game: Game
let staticChallenge: Challenge
let dynContainer: Challenge
let dynAttachment: Challenge
let noInstance: Challenge
let alice: Player
let bob: Player

const HOUR = 3600_000

const expectError = (res: { status: number; body: unknown }, status: number, title: string, bodyStatus = status) =>
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status: bodyStatus } })

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => server.services.orm.em.fork().getConnection().execute<T[]>(query, params)

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  game = await createGame(server, { practiceMode: false })
  staticChallenge = await createChallenge(server, game, { title: 'Static', flags: ['flag{static}', 'flag{also}'] })
  dynContainer = await createChallenge(server, game, { title: 'Box', type: 'DynamicContainer', flags: [] })
  dynAttachment = await createChallenge(server, game, { title: 'Files', type: 'DynamicAttachment', flags: [] })
  noInstance = await createChallenge(server, game, { title: 'Nowhere' })
  alice = await createPlayer(server, game)
  bob = await createPlayer(server, game)
  for (const [p, name] of [
    [alice, 'alice'],
    [bob, 'bob'],
  ] as const) {
    await createInstance(server, p.participation, staticChallenge)
    await createInstance(server, p.participation, dynContainer, { dynamicFlag: `flag{box-${name}}` })
    await createInstance(server, p.participation, dynAttachment, { assignedFlag: `flag{file-${name}}` })
  }
})
afterAll(async () => {
  await server?.close()
})

describe('POST /api/game/{id}/challenges/{challengeId}', () => {
  it('queues the trimmed answer, answers the id as a bare number, and the checker accepts a static flag', async () => {
    const res = await alice.client.post(submitPath(game.id, staticChallenge.id), { flag: '  flag{static}\t' })
    expect(res.status).toBe(200)
    expect(res.text).toMatch(/^\d+$/)
    const id = res.body as number
    const [row] = await sql<{ answer: string; participation_id: number; user_id: string; challenge_id: number; game_id: number; submit_time: string }>(
      'select answer, participation_id, user_id, challenge_id, game_id, submit_time from submissions where id = ?',
      [id],
    )
    expect(row).toMatchObject({ answer: 'flag{static}', participation_id: alice.participation.id, user_id: alice.user.id, challenge_id: staticChallenge.id, game_id: game.id })
    expect(await settled(alice.client, game.id, staticChallenge.id, id)).toBe('Accepted')

    const [after] = await sql<{ status: string; settled_at: string | null }>('select status, settled_at from submissions where id = ?', [id])
    expect(after.status).toBe('Accepted')
    expect(after.settled_at).not.toBeNull()
    const [challenge] = await sql<{ accepted_count: number }>('select accepted_count from challenges where id = ?', [staticChallenge.id])
    expect(challenge.accepted_count).toBe(1)
    const events = await sql<{ type: string; content: string; user_id: string; team_id: number }>('select type, content, user_id, team_id from events where game_id = ? order by id', [game.id])
    expect(events).toEqual([{ type: 'FlagSubmit', content: `[答案正确] flag{static}  Static#${staticChallenge.id}`, user_id: alice.user.id, team_id: alice.team.id }])
    const notices = await sql<{ type: string; content: string }>('select type, content from notices where game_id = ?', [game.id])
    expect(notices).toEqual([{ type: 'FirstBlood', content: `恭喜 ${alice.team.name} 获得 「Static」 的一血` }])
  })

  it('accepts any of the static flags, counts a team once and gives the next team the second blood', async () => {
    const again = await submit(alice.client, game.id, staticChallenge.id, 'flag{also}')
    expect(await settled(alice.client, game.id, staticChallenge.id, again)).toBe('Accepted')
    const second = await submit(bob.client, game.id, staticChallenge.id, 'flag{also}')
    expect(await settled(bob.client, game.id, staticChallenge.id, second)).toBe('Accepted')
    const [challenge] = await sql<{ accepted_count: number }>('select accepted_count from challenges where id = ?', [staticChallenge.id])
    expect(challenge.accepted_count).toBe(2)
    const notices = await sql<{ type: string; content: string }>('select type, content from notices where game_id = ? order by id', [game.id])
    expect(notices.map((n) => n.type)).toEqual(['FirstBlood', 'SecondBlood'])
    expect(notices[1]!.content).toBe(`恭喜 ${bob.team.name} 获得 「Static」 的二血`)
  })

  it('judges a wrong answer WrongAnswer with a FlagSubmit event', async () => {
    const id = await submit(alice.client, game.id, staticChallenge.id, 'flag{nope}')
    expect(await settled(alice.client, game.id, staticChallenge.id, id)).toBe('WrongAnswer')
    const [event] = await sql<{ type: string; content: string }>('select type, content from events where game_id = ? order by id desc limit 1', [game.id])
    expect(event).toEqual({ type: 'FlagSubmit', content: `[答案错误] flag{nope}  Static#${staticChallenge.id}` })
  })

  it('judges NotFound when the team has no instance, without an event', async () => {
    const events = await countRows(server, 'events', 'game_id = ?', [game.id])
    const id = await submit(alice.client, game.id, noInstance.id, 'flag{test}')
    expect(await settled(alice.client, game.id, noInstance.id, id)).toBe('NotFound')
    expect(await countRows(server, 'events', 'game_id = ?', [game.id])).toBe(events)
  })

  it("compares dynamic challenges with the team's own flag", async () => {
    const box = await submit(alice.client, game.id, dynContainer.id, 'flag{box-alice}')
    expect(await settled(alice.client, game.id, dynContainer.id, box)).toBe('Accepted')
    const file = await submit(bob.client, game.id, dynAttachment.id, 'flag{file-bob}')
    expect(await settled(bob.client, game.id, dynAttachment.id, file)).toBe('Accepted')
    // A flag of the challenge that nobody was given is just wrong.
    const unassigned = await submit(alice.client, game.id, dynAttachment.id, 'flag{test}')
    expect(await settled(alice.client, game.id, dynAttachment.id, unassigned)).toBe('WrongAnswer')
  })

  it("detects another team's dynamic flag: CheatDetected stored, WrongAnswer shown, cheat row and events", async () => {
    const stolen = await submit(bob.client, game.id, dynContainer.id, 'flag{box-alice}')
    expect(await settled(bob.client, game.id, dynContainer.id, stolen)).toBe('WrongAnswer')
    const [row] = await sql<{ status: string }>('select status from submissions where id = ?', [stolen])
    expect(row.status).toBe('CheatDetected')
    const cheats = await sql<{ game_id: number; submit_team_id: number; source_team_id: number }>('select game_id, submit_team_id, source_team_id from cheat_infos where submission_id = ?', [stolen])
    expect(cheats).toEqual([{ game_id: game.id, submit_team_id: bob.participation.id, source_team_id: alice.participation.id }])
    const events = await sql<{ type: string; content: string }>('select type, content from events where game_id = ? order by id desc limit 2', [game.id])
    expect(events.reverse()).toEqual([
      { type: 'FlagSubmit', content: `[答案错误] flag{box-alice}  Box#${dynContainer.id}` },
      { type: 'CheatDetected', content: `题目 [Box] 疑似发生违规，相关队伍 [${bob.team.name}] 和 [${alice.team.name}]` },
    ])

    const attachment = await submit(alice.client, game.id, dynAttachment.id, 'flag{file-bob}')
    expect(await settled(alice.client, game.id, dynAttachment.id, attachment)).toBe('WrongAnswer')
    expect(await countRows(server, 'cheat_infos', 'submission_id = ? and source_team_id = ?', [attachment, bob.participation.id])).toBe(1)
    expect(await countRows(server, 'submissions', `id = ? and status = 'CheatDetected'`, [attachment])).toBe(1)
  })

  it('refuses bad input with 400 and stores nothing', async () => {
    const before = await countRows(server, 'submissions')
    const path = submitPath(game.id, staticChallenge.id)
    expectError(await alice.client.post(path, {}), 400, 'flag 是必需的')
    expectError(await alice.client.post(path, { flag: '' }), 400, 'flag 是必需的')
    expectError(await alice.client.post(path, { flag: null }), 400, 'flag 是必需的')
    expectError(await alice.client.post(path, { flag: 'x'.repeat(127) }), 400, 'flag 过长')
    const typed = await alice.client.post(path, { flag: 123 })
    expect(typed.status).toBe(400)
    expect(typed.body).toEqual({ title: 'The JSON value could not be converted to System.String.', status: 400 })
    expect((await alice.client.post(path, { flag: true })).status).toBe(400)
    expect(await countRows(server, 'submissions')).toBe(before)
    // 126 characters is the limit.
    expect((await alice.client.post(path, { flag: 'x'.repeat(126) })).status).toBe(200)
  })

  it('401 anonymous and 403 banned, before the body is read', async () => {
    const before = await countRows(server, 'submissions')
    expectError(await server.client().post(submitPath(game.id, staticChallenge.id), { flag: 'flag{static}' }), 401, '请先登录')
    expectError(await server.client().post(submitPath(game.id, staticChallenge.id), {}), 401, '请先登录')
    const banned = await createUser(server, { role: 'Banned' })
    expectError(await banned.client.post(submitPath(game.id, staticChallenge.id), { flag: 'flag{static}' }), 403, '无权访问')
    expect(await countRows(server, 'submissions')).toBe(before)
  })

  it('applies the context gate in order and stores nothing', async () => {
    const before = await countRows(server, 'submissions')
    const outsider = await createUser(server)
    expectError(await outsider.client.post(submitPath(999_999_999, staticChallenge.id), { flag: 'x' }), 404, '比赛未找到')
    expectError(await outsider.client.post(submitPath(game.id, staticChallenge.id), { flag: 'x' }), 400, '您尚未参赛')
    const pending = await createPlayer(server, game, { status: 'Pending' })
    expectError(await pending.client.post(submitPath(game.id, staticChallenge.id), { flag: 'x' }), 400, '您的参赛申请尚未通过或被禁赛')
    const suspended = await createPlayer(server, game, { status: 'Suspended' })
    expectError(await suspended.client.post(submitPath(game.id, staticChallenge.id), { flag: 'x' }), 400, '您的参赛申请尚未通过或被禁赛')

    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
    const futureChallenge = await createChallenge(server, future)
    const early = await createPlayer(server, future)
    expectError(await early.client.post(submitPath(future.id, futureChallenge.id), { flag: 'x' }), 400, '比赛未开始')

    const ended = await createGame(server, { start: new Date(Date.now() - 2 * HOUR), end: new Date(Date.now() - HOUR), practiceMode: false })
    const endedChallenge = await createChallenge(server, ended)
    const late = await createPlayer(server, ended)
    expectError(await late.client.post(submitPath(ended.id, endedChallenge.id), { flag: 'x' }), 400, '比赛已结束')

    expectError(await alice.client.post(submitPath(game.id, 999_999_999), { flag: 'x' }), 404, '题目未找到')
    const elsewhere = await createChallenge(server, future)
    expectError(await alice.client.post(submitPath(game.id, elsewhere.id), { flag: 'x' }), 404, '题目未找到')
    // Validation comes before the gate.
    expectError(await outsider.client.post(submitPath(game.id, staticChallenge.id), {}), 400, 'flag 是必需的')
    expect(await countRows(server, 'submissions')).toBe(before)
  })

  it('accepts a disabled challenge of the game (step 6 does not look at it) and judges it', async () => {
    const disabled = await createChallenge(server, game, { title: 'Off', isEnabled: false, flags: ['flag{off}'] })
    await createInstance(server, alice.participation, disabled)
    const id = await submit(alice.client, game.id, disabled.id, 'flag{off}')
    expect(await settled(alice.client, game.id, disabled.id, id)).toBe('Accepted')
  })

  it('in practice mode after the end: accepted, but neither counted nor announced', async () => {
    const practice = await createGame(server, { start: new Date(Date.now() - 2 * HOUR), end: new Date(Date.now() - HOUR), practiceMode: true })
    const challenge = await createChallenge(server, practice, { flags: ['flag{late}'] })
    const p = await createPlayer(server, practice)
    await createInstance(server, p.participation, challenge)
    const id = await submit(p.client, practice.id, challenge.id, 'flag{late}')
    expect(await settled(p.client, practice.id, challenge.id, id)).toBe('Accepted')
    const [row] = await sql<{ accepted_count: number }>('select accepted_count from challenges where id = ?', [challenge.id])
    expect(row.accepted_count).toBe(0)
    expect(await countRows(server, 'notices', 'game_id = ?', [practice.id])).toBe(0)
    expect(await countRows(server, 'events', `game_id = ? and type = 'FlagSubmit'`, [practice.id])).toBe(1)
  })

  it('announces first, second and third blood only, in solve order', async () => {
    const g = await createGame(server)
    const c = await createChallenge(server, g, { title: 'Race', flags: ['flag{race}'] })
    const players: Player[] = []
    for (let i = 0; i < 4; i++) {
      const p = await createPlayer(server, g)
      await createInstance(server, p.participation, c)
      players.push(p)
    }
    for (const p of players) {
      const id = await submit(p.client, g.id, c.id, 'flag{race}')
      expect(await settled(p.client, g.id, c.id, id)).toBe('Accepted')
    }
    const notices = await sql<{ type: string; content: string }>('select type, content from notices where game_id = ? order by id', [g.id])
    expect(notices).toEqual([
      { type: 'FirstBlood', content: `恭喜 ${players[0]!.team.name} 获得 「Race」 的一血` },
      { type: 'SecondBlood', content: `恭喜 ${players[1]!.team.name} 获得 「Race」 的二血` },
      { type: 'ThirdBlood', content: `恭喜 ${players[2]!.team.name} 获得 「Race」 的三血` },
    ])
    const [row] = await sql<{ accepted_count: number }>('select accepted_count from challenges where id = ?', [c.id])
    expect(row.accepted_count).toBe(4)
  })

  it('settles a burst of concurrent submissions exactly once, with one blood per rank', async () => {
    const g = await createGame(server)
    const c = await createChallenge(server, g, { title: 'Burst', flags: ['flag{burst}'] })
    const players: Player[] = []
    for (let i = 0; i < 6; i++) {
      const p = await createPlayer(server, g)
      await createInstance(server, p.participation, c)
      players.push(p)
    }
    const ids = await Promise.all(players.flatMap((p) => [submit(p.client, g.id, c.id, 'flag{burst}'), submit(p.client, g.id, c.id, 'wrong'), submit(p.client, g.id, c.id, 'flag{burst}')]))
    await queueDrained(server)
    expect(new Set(ids).size).toBe(18)
    expect(await countRows(server, 'submissions', `game_id = ? and status = 'Accepted'`, [g.id])).toBe(12)
    expect(await countRows(server, 'submissions', `game_id = ? and status = 'WrongAnswer'`, [g.id])).toBe(6)
    expect(await countRows(server, 'events', `game_id = ? and type = 'FlagSubmit'`, [g.id])).toBe(18)
    const notices = await sql<{ type: string }>('select type from notices where game_id = ? order by id', [g.id])
    expect(notices.map((n) => n.type)).toEqual(['FirstBlood', 'SecondBlood', 'ThirdBlood'])
    const [row] = await sql<{ accepted_count: number }>('select accepted_count from challenges where id = ?', [c.id])
    expect(row.accepted_count).toBe(6)
  })
})

describe('GET /api/game/{id}/challenges/{challengeId}/status/{submitId}', () => {
  it("answers only the caller's own submission of that game and challenge", async () => {
    const id = await submit(alice.client, game.id, staticChallenge.id, 'flag{static}')
    await settled(alice.client, game.id, staticChallenge.id, id)
    const ok = await alice.client.get(statusPath(game.id, staticChallenge.id, id))
    expect(ok.status).toBe(200)
    expect(ok.text).toBe('"Accepted"')
    expectError(await bob.client.get(statusPath(game.id, staticChallenge.id, id)), 404, '提交未找到')
    expectError(await alice.client.get(statusPath(game.id, dynContainer.id, id)), 404, '提交未找到')
    expectError(await alice.client.get(statusPath(game.id + 1, staticChallenge.id, id)), 404, '提交未找到')
    expectError(await alice.client.get(statusPath(game.id, staticChallenge.id, 999_999_999)), 404, '提交未找到')
    expectError(await server.client().get(statusPath(game.id, staticChallenge.id, id)), 401, '请先登录')
  })
})

describe('Submit rate limit', () => {
  it('answers 429 with Retry-After after 60 submissions in the window', async () => {
    const limited = await startTestServer({ rateLimit: true })
    try {
      const g = await createGame(limited)
      const c = await createChallenge(limited, g)
      const user = await createUser(limited)
      const team = await createTeam(limited, user.user)
      await createParticipation(limited, g, team, [user.user])
      const results = []
      for (let i = 0; i < 60; i++) results.push((await user.client.post(submitPath(g.id, c.id), { flag: `flag{${i}}` })).status)
      expect(results.every((s) => s === 200)).toBe(true)
      const refused = await user.client.post(submitPath(g.id, c.id), { flag: 'flag{61}' })
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({ status: 429 })
      expect((refused.body as { title: string }).title).toMatch(/^Too many requests, retry after \d+ seconds\.$/)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      const [{ n }] = await limited.services.orm.em.fork().getConnection().execute<{ n: string }[]>('select count(*) as n from submissions')
      expect(Number(n)).toBe(60)
    } finally {
      await limited.close()
    }
  })
})
