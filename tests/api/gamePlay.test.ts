/**
 * Playing a game (docs/compatibility.md#group-game-reading-and-joining, #group-game-challenges-and-flags): the public list and detail,
 * the context gate on `details` and challenge views, instance loading (dynamic attachments
 * assigned once and exclusively, dynamic-container flags generated once from the template) and
 * the notice list.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { BasicGameInfoModel, DetailedGameInfoModel, GameDetailModel, GameNotice } from '@flagwave/shared/schemas/games'
import { ChallengeDetailModel } from '@flagwave/shared/schemas/play'
import { MIN_DATE_WIRE, toWireDate } from '@flagwave/shared/format'
import { challengeScore } from '@flagwave/shared/scoring'
import { teamHash } from '@flagwave/shared/flags'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createChallenge, createGame, createNotice, createParticipation, createStoredFile } from '../support/factories/games.js'
import { createAttachmentFlags, createInstanceContainer, createSubmission } from '../support/factories/play.js'
import { Game } from '../../server/src/entities/Game.js'
import { Challenge } from '../../server/src/entities/Challenge.js'
import { Attachment } from '../../server/src/entities/Attachment.js'
import { Flag } from '../../server/src/entities/Flag.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import type { Participation } from '../../server/src/entities/Participation.js'
import type { Team } from '../../server/src/entities/Team.js'
import { ensureInstances } from '../../server/src/domain/play/instances.js'
import { sha256Hex, teamHashSalt } from '../../server/src/domain/games/keys.js'

let server: TestServer
let banned: TestUser
const HOUR = 3600_000
const DAY = 24 * HOUR

beforeAll(async () => {
  server = await startTestServer()
  banned = await createUser(server, { role: 'Banned' })
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()

interface Player extends TestUser {
  team: Team
  participation: Participation
}

/** A user with a team registered in `game` with `status`; accepted teams get their instances. */
async function player(game: Game, status: Participation['status'] = 'Accepted', organization: string | null = null): Promise<Player> {
  const u = await createUser(server)
  const team = await createTeam(server, u.user)
  const participation = await createParticipation(server, game, team, [u.user], status, organization)
  if (status === 'Accepted') await ensureInstances(em(), participation.id, game.id)
  return { ...u, team, participation }
}

const expectError = (res: { status: number; body: unknown }, status: number, title: string, bodyStatus = status) =>
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status: bodyStatus } })

describe('GET /api/game', () => {
  it('lists the 10 most recent non-hidden games by start, newest first; hidden games stay readable by id', async () => {
    const base = Date.now() + 400 * DAY
    const games: Game[] = []
    for (let i = 0; i < 12; i++) games.push(await createGame(server, { start: new Date(base + i * HOUR), end: new Date(base + i * HOUR + DAY), teamMemberCountLimit: i }))
    const hidden = await createGame(server, { hidden: true, start: new Date(base + 100 * HOUR), end: new Date(base + 101 * HOUR) })
    const res = await server.client().get('/api/game')
    expect(res.status).toBe(200)
    const list = z.array(BasicGameInfoModel).parse(res.body)
    expect(list.map((g) => g.id)).toEqual(games.slice(2).reverse().map((g) => g.id))
    expect(list[0]).toEqual({ id: games[11]!.id, title: games[11]!.title, summary: '', poster: null, limit: 11, start: toWireDate(games[11]!.start), end: toWireDate(games[11]!.end) })
    const detail = await server.client().get(`/api/game/${hidden.id}`)
    expect(detail.status).toBe(200)
    expect(DetailedGameInfoModel.parse(detail.body).hidden).toBe(true)
  })
})

describe('GET /api/game/{id}', () => {
  it('answers anonymous callers with Unsubmitted and reflects the caller’s participation in any status', { timeout: 120_000 }, async () => {
    const game = await createGame(server, { inviteCode: 'code', organizations: ['A'], teamMemberCountLimit: 3, content: '# hi', summary: 's' })
    const suspended = await player(game, 'Suspended', 'A')
    await player(game, 'Pending')
    const anon = await server.client().get(`/api/game/${game.id}`)
    expect(anon.status).toBe(200)
    expect(DetailedGameInfoModel.parse(anon.body)).toEqual({
      id: game.id,
      title: game.title,
      summary: 's',
      content: '# hi',
      hidden: false,
      organizations: ['A'],
      inviteCodeRequired: true,
      poster: null,
      limit: 3,
      teamCount: 2,
      organization: null,
      teamName: null,
      practiceMode: true,
      status: 'Unsubmitted',
      start: toWireDate(game.start),
      end: toWireDate(game.end),
      writeupRequired: false,
      division: null,
      // v0.17.6's organization 'A' is a division of that name (docs/scoring.md#divisions).
      divisions: [{ id: expect.any(Number), name: 'A', inviteCodeRequired: false }],
      frozen: false,
      freezeTime: null,
      replayPublic: false,
    })
    const mine = await suspended.client.get(`/api/game/${game.id}`)
    expect(mine.body).toMatchObject({ status: 'Suspended', teamName: suspended.team.name, organization: 'A' })
    const stranger = await createUser(server)
    expect((await stranger.client.get(`/api/game/${game.id}`)).body).toMatchObject({ status: 'Unsubmitted', teamName: null })
  })

  it('404 for an unknown game, and a non-integer id matches no endpoint', async () => {
    expectError(await server.client().get('/api/game/999999'), 404, '比赛未找到')
    expect((await server.client().get('/api/game/abc')).status).toBe(404)
  })
})

describe('the context gate (details, challenges)', () => {
  it('checks game, registration, acceptance, start and end in order', { timeout: 120_000 }, async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game)
    const accepted = await player(game)
    const pending = await player(game, 'Pending')
    const outsider = await createUser(server)
    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + DAY) })
    const early = await player(future)
    const ended = await createGame(server, { practiceMode: false, start: new Date(Date.now() - 2 * DAY), end: new Date(Date.now() - DAY), wpddl: new Date(Date.now() + DAY) })
    const late = await player(ended)
    const paths = (g: number) => [`/api/game/${g}/details`, `/api/game/${g}/challenges/${challenge.id}`]
    for (const p of paths(999999)) expectError(await accepted.client.get(p), 404, '比赛未找到')
    for (const p of paths(game.id)) {
      expectError(await outsider.client.get(p), 400, '您尚未参赛')
      expectError(await pending.client.get(p), 400, '您的参赛申请尚未通过或被禁赛')
      expect((await server.client().get(p)).body).toEqual({ title: '请先登录', status: 401 })
      expect((await banned.client.get(p)).body).toEqual({ title: '无权访问', status: 403 })
    }
    for (const p of paths(future.id)) expectError(await early.client.get(p), 400, '比赛未开始')
    for (const p of paths(ended.id)) expectError(await late.client.get(p), 400, '比赛已结束')

    // practice mode keeps an ended game playable
    const practice = await createGame(server, { practiceMode: true, start: new Date(Date.now() - 2 * DAY), end: new Date(Date.now() - DAY) })
    await createChallenge(server, practice)
    const practising = await player(practice)
    expect((await practising.client.get(`/api/game/${practice.id}/details`)).status).toBe(200)
  })
})

describe('GET /api/game/{id}/details', () => {
  it('a team without any instance gets the synthetic row', async () => {
    const game = await createGame(server)
    const p = await player(game)
    const res = await p.client.get(`/api/game/${game.id}/details`)
    expect(res.status).toBe(200)
    expect(GameDetailModel.parse(res.body)).toEqual({
      challenges: {},
      rank: {
        id: p.team.id,
        name: p.team.name,
        bio: '',
        organization: null,
        avatar: null,
        score: 0,
        rank: 0,
        organizationRank: null,
        solvedCount: 0,
        lastSubmissionTime: MIN_DATE_WIRE,
        challenges: [],
        solvedChallenges: [],
        divisionId: null,
        divisionRank: null,
        hintPenalty: 0,
      },
      teamToken: p.participation.token,
      wpddl: toWireDate(game.wpddl),
      writeupDeadline: toWireDate(game.wpddl),
      writeupRequired: false,
      challengeCount: 0,
      lockedChallenges: [],
    })
  })

  it("answers the scoreboard's challenges and the caller team's row", async () => {
    const game = await createGame(server, { bloodBonus: 0 })
    const web = await createChallenge(server, game, { tag: 'Web', originalScore: 300, acceptedCount: 1 })
    const misc = await createChallenge(server, game, { tag: 'Misc', originalScore: 100 })
    const solver = await player(game)
    const other = await player(game)
    await createSubmission(server, game, web, solver.participation, solver.user, { status: 'Accepted', submitTime: new Date(Date.now() - 60_000) })
    await server.services.orm.em.fork().nativeUpdate(Challenge, { id: web.id }, { acceptedCount: 1 })
    await server.services.scoreboard.rebuild(game.id) // rows were written behind the engine's back
    const res = await solver.client.get(`/api/game/${game.id}/details`)
    expect(res.status).toBe(200)
    const detail = GameDetailModel.parse(res.body)
    expect(Object.keys(detail.challenges)).toEqual(['Misc', 'Web'])
    expect(detail.challenges.Web![0]).toMatchObject({ id: web.id, score: 300, solved: 1, bloods: [{ id: solver.team.id, name: solver.team.name }] })
    expect(detail.rank).toMatchObject({ id: solver.team.id, rank: 1, score: 300, solvedCount: 1 })
    expect(detail.rank.challenges.find((c) => c.id === web.id)).toMatchObject({ score: 300, type: 'FirstBlood', userName: solver.user.userName })
    expect(detail.rank.challenges.find((c) => c.id === misc.id)).toMatchObject({ score: 0, type: 'Unaccepted', userName: null, time: null })
    const otherRow = GameDetailModel.parse((await other.client.get(`/api/game/${game.id}/details`)).body).rank
    expect(otherRow).toMatchObject({ id: other.team.id, rank: 2, score: 0, lastSubmissionTime: toWireDate(game.start) })
  })
})

describe('GET /api/game/{id}/challenges/{challengeId}', () => {
  it('404 `题目未找到` for non-positive ids, before the gate', async () => {
    const outsider = await createUser(server)
    expectError(await outsider.client.get('/api/game/1/challenges/0'), 404, '题目未找到')
    expectError(await outsider.client.get('/api/game/0/challenges/5'), 404, '题目未找到')
    expectError(await outsider.client.get('/api/game/-3/challenges/5'), 404, '题目未找到')
  })

  it('a static challenge: statement, hints, current score and the attachment', async () => {
    const game = await createGame(server)
    const file = await createStoredFile(server, randomBytes(100), 'statement.zip')
    const e = em()
    const attachment = e.create(Attachment, { type: 'Local', fileHash: file.hash, remoteUrl: null })
    await e.flush()
    const challenge = await createChallenge(server, game, { tag: 'Crypto', content: 'solve me', hints: ['h1', 'h2'], originalScore: 1000, acceptedCount: 4, attachment: attachment.id })
    const remote = e.create(Attachment, { type: 'Remote', fileHash: null, remoteUrl: 'https://example.com/x.bin' })
    await e.flush()
    const remoteChallenge = await createChallenge(server, game, { attachment: remote.id })
    const p = await player(game)
    const res = await p.client.get(`/api/game/${game.id}/challenges/${challenge.id}`)
    expect(res.status).toBe(200)
    expect(ChallengeDetailModel.parse(res.body)).toEqual({
      id: challenge.id,
      title: challenge.title,
      content: 'solve me',
      tag: 'Crypto',
      hints: ['h1', 'h2'],
      score: challengeScore(1000, 0.25, 5, 4),
      type: 'StaticAttachment',
      context: { closeTime: null, instanceEntry: null, url: `/assets/${file.hash}/statement.zip`, fileSize: 100 },
      category: 'Crypto',
      limit: 0,
      attempts: 0,
      deadline: null,
      costedHints: [],
    })
    const r2 = await p.client.get(`/api/game/${game.id}/challenges/${remoteChallenge.id}`)
    expect(r2.body.context).toEqual({ closeTime: null, instanceEntry: null, url: 'https://example.com/x.bin', fileSize: null })
    const instance = await em().findOneOrFail(GameInstance, { participation: p.participation.id, challenge: challenge.id })
    expect(instance.isLoaded).toBe(true)
  })

  it('a container challenge shows its running container', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'StaticContainer' })
    const p = await player(game)
    const container = await createInstanceContainer(server, p.participation, challenge, { ip: '10.1.2.3', port: 1337, publicIp: 'ctf.example', publicPort: 30001 })
    const res = await p.client.get(`/api/game/${game.id}/challenges/${challenge.id}`)
    expect(res.body.context).toEqual({ closeTime: toWireDate(container.expectStopAt), instanceEntry: 'ctf.example:30001', url: null, fileSize: null })
  })

  it('404 when the team has no instance, or the challenge is disabled at first view; a loaded instance stays reachable', async () => {
    const game = await createGame(server)
    const p = await player(game)
    const later = await createChallenge(server, game) // enabled after acceptance: no instance yet
    expectError(await p.client.get(`/api/game/${game.id}/challenges/${later.id}`), 404, '题目未找到或动态附件分配失败')
    const otherGame = await createGame(server)
    const foreign = await createChallenge(server, otherGame)
    expectError(await p.client.get(`/api/game/${game.id}/challenges/${foreign.id}`), 404, '题目未找到或动态附件分配失败')

    const a = await createChallenge(server, game)
    const b = await createChallenge(server, game)
    await ensureInstances(em(), p.participation.id, game.id)
    expect((await p.client.get(`/api/game/${game.id}/challenges/${a.id}`)).status).toBe(200)
    await em().nativeUpdate(Challenge, { id: { $in: [a.id, b.id] } }, { isEnabled: false })
    expect((await p.client.get(`/api/game/${game.id}/challenges/${a.id}`)).status).toBe(200)
    expectError(await p.client.get(`/api/game/${game.id}/challenges/${b.id}`), 404, '题目未找到或动态附件分配失败')
    expect((await em().findOneOrFail(GameInstance, { participation: p.participation.id, challenge: b.id })).isLoaded).toBe(false)
  })

  it('a dynamic attachment is assigned once, stays stable and is never shared between teams', { timeout: 120_000 }, async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'DynamicAttachment', fileName: 'chall.bin', flags: [] })
    await createAttachmentFlags(server, challenge, ['flag{a}', 'flag{b}', 'flag{c}', 'flag{d}'])
    const players: Player[] = []
    for (let i = 0; i < 6; i++) players.push(await player(game))

    // six teams look at once; four flags → four teams get one each, two get the allocation error
    const results = await Promise.all(players.map((p) => p.client.get(`/api/game/${game.id}/challenges/${challenge.id}`)))
    const ok = results.filter((r) => r.status === 200)
    expect(ok).toHaveLength(4)
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 404, '题目未找到或动态附件分配失败')
    const urls = ok.map((r) => ChallengeDetailModel.parse(r.body).context.url!)
    expect(new Set(urls).size).toBe(4)
    for (const url of urls) expect(url).toMatch(/^\/assets\/[0-9a-f]{64}\/chall\.bin$/)

    const instances = await em().find(GameInstance, { challenge: challenge.id, isLoaded: true }, { populate: ['flag'] })
    expect(instances).toHaveLength(4)
    expect(new Set(instances.map((i) => (i.flag as Flag).id)).size).toBe(4)
    expect(await em().count(Flag, { challenge: challenge.id, isOccupied: true })).toBe(4)

    // stable: the same team sees the same attachment again
    const winnerIndex = results.findIndex((r) => r.status === 200)
    const again = await players[winnerIndex]!.client.get(`/api/game/${game.id}/challenges/${challenge.id}`)
    expect(again.body.context.url).toBe(results[winnerIndex]!.body.context.url)
    expect(again.body.context.fileSize).toBe(Buffer.from('attachment of flag{a}').length)
  })

  it('a dynamic container flag is generated once from the template', async () => {
    const game = await createGame(server)
    const hashed = await createChallenge(server, game, { type: 'DynamicContainer', flagTemplate: 'flag{[TEAM_HASH]_static}', flags: [] })
    const guid = await createChallenge(server, game, { type: 'DynamicContainer', flagTemplate: 'flag{[GUID]}', flags: [] })
    const none = await createChallenge(server, game, { type: 'DynamicContainer', flagTemplate: null, flags: [] })
    const leet = await createChallenge(server, game, { type: 'DynamicContainer', flagTemplate: '[LEET]flag{hello_[TEAM_HASH]}', flags: [] })
    const p = await player(game)
    const q = await player(game)
    const flagOf = async (who: Player, c: Challenge) => {
      expect((await who.client.get(`/api/game/${game.id}/challenges/${c.id}`)).status).toBe(200)
      return (await em().findOneOrFail(GameInstance, { participation: who.participation.id, challenge: c.id })).dynamicFlag!
    }
    const salt = teamHashSalt(game)
    const hashOf = (who: Player, c: Challenge) => teamHash({ teamToken: who.participation.token, teamHashSalt: salt, challengeId: c.id, sha256Hex })

    const first = await flagOf(p, hashed)
    expect(first).toBe(`flag{${hashOf(p, hashed)}_static}`)
    expect(await flagOf(p, hashed)).toBe(first) // generated once
    expect(await flagOf(q, hashed)).toBe(`flag{${hashOf(q, hashed)}_static}`)
    expect(hashOf(p, hashed)).not.toBe(hashOf(q, hashed))
    expect(await flagOf(p, guid)).toMatch(/^flag\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/)
    expect(await flagOf(p, none)).toMatch(/^flag\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/)
    const leeted = await flagOf(p, leet)
    expect(leeted.endsWith(`_${hashOf(p, leet)}}`)).toBe(true)
    expect(leeted).toMatch(/^[Ff1][Ll1I][Aa4][Gg69]\{[Hh][Ee3][Ll1I][Ll1I][Oo0]_[0-9a-f]{12}\}$/)
    // the flag is not shown to the team
    expect(JSON.stringify((await p.client.get(`/api/game/${game.id}/challenges/${hashed.id}`)).body)).not.toContain(first)
  })
})

describe('GET /api/game/{id}/notices', () => {
  it('lists admin notices first, then system notices, each newest first; count and skip page the list', async () => {
    const game = await createGame(server)
    const t = Date.now()
    const n1 = await createNotice(server, game, { type: 'Normal', publishTime: new Date(t - 50_000) })
    const blood = await createNotice(server, game, { type: 'FirstBlood', publishTime: new Date(t - 10_000) })
    const n2 = await createNotice(server, game, { type: 'Normal', publishTime: new Date(t - 40_000) })
    const hint = await createNotice(server, game, { type: 'NewHint', publishTime: new Date(t - 5_000) })
    const res = await server.client().get(`/api/game/${game.id}/notices`)
    expect(res.status).toBe(200)
    const list = z.array(GameNotice).parse(res.body)
    expect(list.map((n) => n.id)).toEqual([n2.id, n1.id, hint.id, blood.id])
    // A text that does not follow the NewHint template keeps itself as its only value.
    expect(list[2]).toEqual({ id: hint.id, type: 'NewHint', content: hint.content, time: toWireDate(hint.publishTime), values: [hint.content] })
    const page = await server.client().get(`/api/game/${game.id}/notices?count=2&skip=1`)
    expect(page.body.map((n: { id: number }) => n.id)).toEqual([n1.id, hint.id])
  })

  it('refuses unknown and future games and bad paging values', async () => {
    expectError(await server.client().get('/api/game/999999/notices'), 404, '比赛未找到')
    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + DAY) })
    expectError(await server.client().get(`/api/game/${future.id}/notices`), 400, '比赛未开始')
    const game = await createGame(server)
    expectError(await server.client().get(`/api/game/${game.id}/notices?count=abc`), 400, "The value 'abc' is not valid.")
  })
})
