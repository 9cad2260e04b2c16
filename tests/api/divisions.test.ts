/**
 * Divisions (docs/scoring.md#divisions; GZ::CTF 1.7 on the wire, docs/compatibility.md#newer-gzctf-versions):
 * the editor's CRUD, v0.17.6's organizations mapped onto them, joining (by id, 1.0's name, v0.17.6's
 * organization; invite codes; JoinGame), moving a participation, and the rules in play — what the
 * board shows a division, submissions it may not make, solves that do not score, take bloods or
 * move the dynamic score, ranks overall and per division.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { GamePermission as P } from '@flagwave/shared/enums'
import { Division as DivisionShape, DetailedGameInfoModel, GameDetailModel } from '@flagwave/shared/schemas/games'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { Participation } from '../../server/src/entities/Participation.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { servedBoard } from '../support/boards.js'
import type { ApiClient } from '../support/client.js'
import { countRows, createChallenge, createDivision, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, settled, submit, submitPath, type Player } from '../support/factories/play.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'

let server: TestServer
/** Wait until the served board satisfies `ok`. */
const eventually = (gameId: number, ok: (board: ScoreboardModel) => boolean, timeoutMs?: number) => servedBoard(server, gameId, ok, timeoutMs)
let admin: ApiClient

const expectError = (res: { status: number; body: unknown }, status: number, title: string) => expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status } })
const divisionsPath = (gameId: number) => `/api/edit/games/${gameId}/divisions`
/** Until another session of the database waits for a lock (the join's foreign key check behind the delete). */
async function waitForLockWait(observer: pg.Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await observer.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
    )
    if (rows[0]!.n > 0) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the join never waited for the deleted division')
}
const divisionOfParticipation = async (id: number) => ((await server.services.orm.em.fork().findOneOrFail(Participation, id)).division as { id: number } | null)?.id ?? null

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

describe('division CRUD (/api/edit/games/{id}/divisions)', () => {
  it('creates, lists, changes and deletes divisions with the wire bodies; names are unique per game', async () => {
    const game = await createGame(server)
    const chal = await createChallenge(server, game)
    expect((await admin.get(divisionsPath(game.id))).body).toEqual([])

    const created = await admin.post(divisionsPath(game.id), { name: 'Students', inviteCode: 'campus', challengeConfigs: [{ challengeId: chal.id, permissions: P.ViewChallenge }] })
    expect(created.status).toBe(200)
    const students = DivisionShape.parse(created.body)
    expect(students).toEqual({ id: students.id, name: 'Students', inviteCode: 'campus', defaultPermissions: P.All, challengeConfigs: [{ challengeId: chal.id, permissions: P.ViewChallenge }] })
    const open = DivisionShape.parse((await admin.post(divisionsPath(game.id), { name: 'Open', defaultPermissions: P.JoinGame | P.ViewChallenge })).body)
    expect(open).toMatchObject({ name: 'Open', inviteCode: null, defaultPermissions: P.JoinGame | P.ViewChallenge, challengeConfigs: [] })

    expectError(await admin.post(divisionsPath(game.id), { name: 'Open' }), 400, '分组名称已存在')
    expectError(await admin.post(divisionsPath(game.id), { name: '' }), 400, '分组名称是必需的')
    expectError(await admin.post(divisionsPath(game.id), { name: 'x'.repeat(65) }), 400, '参赛单位名称过长')
    expectError(await admin.post(divisionsPath(game.id), { name: 'Neg', defaultPermissions: -1 }), 400, '权限值无效')
    const other = await createGame(server)
    const foreign = await createChallenge(server, other)
    expectError(await admin.post(divisionsPath(game.id), { name: 'Foreign', challengeConfigs: [{ challengeId: foreign.id, permissions: 0 }] }), 400, '题目未找到')
    expectError(await admin.post(divisionsPath(999_999), { name: 'Nowhere' }), 404, '比赛未找到')
    expect(await countRows(server, 'divisions', 'game_id = ?', [game.id])).toBe(2)

    // PUT: null permissions and overrides keep them; the invite code is replaced (empty = none).
    const renamed = await admin.put(`${divisionsPath(game.id)}/${students.id}`, { name: 'Undergrads', inviteCode: '' })
    expect(renamed.body).toEqual({ ...students, name: 'Undergrads', inviteCode: null })
    expectError(await admin.put(`${divisionsPath(game.id)}/${students.id}`, { name: 'Open' }), 400, '分组名称已存在')
    expectError(await admin.put(`${divisionsPath(other.id)}/${students.id}`, { name: 'Elsewhere' }), 404, '分组未找到')
    expect((await admin.get(divisionsPath(game.id))).body).toEqual([{ ...students, name: 'Undergrads', inviteCode: null }, open])

    // v0.17.6 sees the divisions as organizations.
    expect((await admin.get(`/api/edit/games/${game.id}`)).body).toMatchObject({ organizations: ['Undergrads', 'Open'] })

    const p = await createPlayer(server, game, { organization: 'Open' })
    expectError(await admin.delete(`${divisionsPath(game.id)}/${open.id}`), 400, '分组中仍有队伍，无法删除')
    expect((await admin.delete(`${divisionsPath(game.id)}/${students.id}`)).status).toBe(200)
    expectError(await admin.delete(`${divisionsPath(game.id)}/${students.id}`), 404, '分组未找到')
    expect((await admin.get(divisionsPath(game.id))).body).toEqual([open])
    expect(await divisionOfParticipation(p.participation.id)).toBe(open.id)
  })

  it('is for admins only; players never read an invite code', async () => {
    const game = await createGame(server)
    await createDivision(server, game, { name: 'Secret', inviteCode: 'hush' })
    const player = await createUser(server)
    expect((await player.client.get(divisionsPath(game.id))).status).toBe(403)
    expect((await player.client.post(divisionsPath(game.id), { name: 'Mine' })).status).toBe(403)
    expect((await server.client().get(divisionsPath(game.id))).status).toBe(401)
    const info = await player.client.get<DetailedGameInfoModel>(`/api/game/${game.id}`)
    expect(info.body.divisions).toEqual([{ id: expect.any(Number), name: 'Secret', inviteCodeRequired: true }])
    expect(info.text).not.toContain('hush')
  })
})

describe('organizations of a v0.17.6 game update', () => {
  it('keeps listed divisions, creates new ones with every permission and refuses to drop one with participations', async () => {
    const game = await createGame(server, { organizations: ['A', 'B'] })
    const [a] = (await admin.get<DivisionShape[]>(divisionsPath(game.id))).body
    await admin.put(`${divisionsPath(game.id)}/${a!.id}`, { name: 'A', defaultPermissions: P.JoinGame })
    const body = { title: game.title, start: game.start.toISOString(), end: game.end.toISOString() }
    const res = await admin.put(`/api/edit/games/${game.id}`, { ...body, organizations: ['A', 'C'] })
    expect(res.status).toBe(200)
    expect(res.body.organizations).toEqual(['A', 'C'])
    const list = (await admin.get<DivisionShape[]>(divisionsPath(game.id))).body
    expect(list.map((d) => [d.name, d.defaultPermissions])).toEqual([
      ['A', P.JoinGame],
      ['C', P.All],
    ])
    expect(list[0]!.id).toBe(a!.id)

    await createPlayer(server, game, { organization: 'C' })
    const refused = await admin.put(`/api/edit/games/${game.id}`, { ...body, title: 'Renamed', organizations: ['A'] })
    expectError(refused, 400, '分组中仍有队伍，无法删除')
    expect((await admin.get(`/api/edit/games/${game.id}`)).body).toMatchObject({ title: game.title, organizations: ['A', 'C'] })
    // null keeps them
    expect((await admin.put(`/api/edit/games/${game.id}`, { ...body, organizations: null })).body.organizations).toEqual(['A', 'C'])
  })
})

describe('joining a game with divisions', () => {
  async function joiner() {
    const user = await createUser(server)
    const team = await createTeam(server, user.user)
    return { ...user, team }
  }

  it('takes divisionId, 1.0 division or v0.17.6 organization; checks codes and JoinGame; GET …/check reports them', async () => {
    const game = await createGame(server, { inviteCode: 'game-code', acceptWithoutReview: true })
    const open = await createDivision(server, game, { name: 'Open' })
    const invited = await createDivision(server, game, { name: 'Invited', inviteCode: 'vip' })
    const closed = await createDivision(server, game, { name: 'Closed', defaultPermissions: P.All & ~P.JoinGame })
    const reviewed = await createDivision(server, game, { name: 'Reviewed' })

    const u1 = await joiner()
    expectError(await u1.client.post(`/api/game/${game.id}`, { teamId: u1.team.id, inviteCode: 'game-code' }), 400, '无效的参赛单位')
    expectError(await u1.client.post(`/api/game/${game.id}`, { teamId: u1.team.id, divisionId: 999_999, inviteCode: 'game-code' }), 400, '分组不存在')
    expectError(await u1.client.post(`/api/game/${game.id}`, { teamId: u1.team.id, division: 'Nope', inviteCode: 'game-code' }), 400, '无效的参赛单位')
    expectError(await u1.client.post(`/api/game/${game.id}`, { teamId: u1.team.id, divisionId: open.id, inviteCode: 'wrong' }), 400, '比赛邀请码错误')
    expectError(await u1.client.post(`/api/game/${game.id}`, { teamId: u1.team.id, divisionId: closed.id, inviteCode: 'game-code' }), 400, '该分组不允许报名')
    // A division with its own code takes it instead of the game's.
    expectError(await u1.client.post(`/api/game/${game.id}`, { teamId: u1.team.id, divisionId: invited.id, inviteCode: 'game-code' }), 400, '比赛邀请码错误')
    expect(await countRows(server, 'participations', 'game_id = ?', [game.id])).toBe(0)

    expect((await u1.client.post(`/api/game/${game.id}`, { teamId: u1.team.id, divisionId: invited.id, inviteCode: 'vip' })).status).toBe(200)
    const u2 = await joiner()
    expect((await u2.client.post(`/api/game/${game.id}`, { teamId: u2.team.id, division: 'Open', inviteCode: 'game-code' })).status).toBe(200)
    const u3 = await joiner()
    expect((await u3.client.post(`/api/game/${game.id}`, { teamId: u3.team.id, organization: 'Reviewed', inviteCode: 'game-code' })).status).toBe(200)

    const info = (await u2.client.get<DetailedGameInfoModel>(`/api/game/${game.id}`)).body
    expect(info).toMatchObject({ organization: 'Open', division: open.id, status: 'Accepted', organizations: ['Open', 'Invited', 'Closed', 'Reviewed'] })
    expect(info.divisions.map((d) => [d.name, d.inviteCodeRequired])).toEqual([
      ['Open', false],
      ['Invited', true],
      ['Closed', false],
      ['Reviewed', false],
    ])
    const check = await u1.client.get(`/api/game/${game.id}/check`)
    expect(check.body).toEqual({ joinedTeams: [{ id: u1.team.id, division: invited.id }], joinableDivisions: [open.id, invited.id, reviewed.id] })
    const participations = (await admin.get<{ team: { id: number }; divisionId: number; division: string; organization: string }[]>(`/api/game/${game.id}/participations`)).body
    expect(participations.map((p) => [p.team.id, p.divisionId, p.division, p.organization])).toEqual(
      [
        [u1.team.id, invited.id, 'Invited', 'Invited'],
        [u2.team.id, open.id, 'Open', 'Open'],
        [u3.team.id, reviewed.id, 'Reviewed', 'Reviewed'],
      ].sort((x, y) => Number(x[0]) - Number(y[0])),
    )
  })

  it('accepts at once the teams of a division that does not require review, even where the game reviews', async () => {
    const game = await createGame(server, { acceptWithoutReview: false })
    const trusted = await createDivision(server, game, { name: 'Trusted', defaultPermissions: P.All & ~P.RequireReview })
    const vetted = await createDivision(server, game, { name: 'Vetted' })
    const a = await joiner()
    const b = await joiner()
    expect((await a.client.post(`/api/game/${game.id}`, { teamId: a.team.id, divisionId: trusted.id })).status).toBe(200)
    expect((await b.client.post(`/api/game/${game.id}`, { teamId: b.team.id, divisionId: vetted.id })).status).toBe(200)
    expect((await a.client.get(`/api/game/${game.id}`)).body.status).toBe('Accepted')
    expect((await b.client.get(`/api/game/${game.id}`)).body.status).toBe('Pending')
  })

  it('refuses with 400, not 500, a division deleted while the join is under way', async () => {
    const game = await createGame(server, { acceptWithoutReview: true })
    const gone = await createDivision(server, game, { name: 'Gone' })
    const u = await joiner()
    // The delete holds the division's row, uncommitted, while the join reads it (still there) and
    // writes its participation, whose foreign key waits for the delete; then the delete commits.
    const deleter = new pg.Client({ connectionString: server.databaseUrl })
    await deleter.connect()
    try {
      await deleter.query('begin')
      await deleter.query('delete from divisions where id = $1', [gone.id])
      const joining = u.client.post(`/api/game/${game.id}`, { teamId: u.team.id, divisionId: gone.id })
      await waitForLockWait(deleter)
      await deleter.query('commit')
      expectError(await joining, 400, '分组不存在')
    } finally {
      await deleter.end()
    }
    expect(await countRows(server, 'participations', 'game_id = ?', [game.id])).toBe(0)
  })

  it('a game without divisions refuses a divisionId and ignores an organization', async () => {
    const game = await createGame(server)
    const u = await joiner()
    expectError(await u.client.post(`/api/game/${game.id}`, { teamId: u.team.id, divisionId: 1 }), 400, '分组不存在')
    expect((await u.client.post(`/api/game/${game.id}`, { teamId: u.team.id, organization: 'anything' })).status).toBe(200)
    expect((await u.client.get(`/api/game/${game.id}`)).body).toMatchObject({ organization: null, division: null, divisions: [], organizations: null })
  })
})

describe('moving a participation (PUT /api/admin/participation/{id})', () => {
  it('moves it to another division of its game, refuses others, and the board follows', async () => {
    const game = await createGame(server)
    const north = await createDivision(server, game, { name: 'North' })
    const south = await createDivision(server, game, { name: 'South' })
    const elsewhere = await createDivision(server, await createGame(server), { name: 'Elsewhere' })
    const chal = await createChallenge(server, game)
    const p = await createPlayer(server, game, { organization: north })
    await createInstances(server, [p.participation], [chal])

    expectError(await admin.put(`/api/admin/participation/${p.participation.id}`, { divisionId: elsewhere.id }), 400, '分组不存在')
    expectError(await admin.put(`/api/admin/participation/999999`, { divisionId: south.id }), 404, '参与状态未找到')
    expect(await divisionOfParticipation(p.participation.id)).toBe(north.id)
    const player = await createUser(server)
    expect((await player.client.put(`/api/admin/participation/${p.participation.id}`, { divisionId: south.id })).status).toBe(403)

    expect((await admin.put(`/api/admin/participation/${p.participation.id}`, { divisionId: south.id })).status).toBe(200)
    expect(await divisionOfParticipation(p.participation.id)).toBe(south.id)
    const board = await eventually(game.id, (b) => b.items[0]?.divisionId === south.id)
    expect(board.items[0]).toMatchObject({ organization: 'South', divisionId: south.id, divisionRank: 1, organizationRank: 1 })
  })
})


describe('rules in play', () => {
  let game: Game
  let shared: Challenge
  let secret: Challenge
  let open: Player
  let guest: Player
  let observer: Player

  beforeAll(async () => {
    game = await createGame(server)
    shared = await createChallenge(server, game, { title: 'Shared', tag: 'Web', originalScore: 500, minScoreRate: 0.25, difficulty: 5 })
    secret = await createChallenge(server, game, { title: 'OpenOnly', tag: 'Pwn', originalScore: 300 })
    const openDivision = await createDivision(server, game, { name: 'Open' })
    // Guests play along: no overall rank, no bloods, and their solves do not move the dynamic score; OpenOnly is hidden from them.
    const guests = await createDivision(server, game, {
      name: 'Guests',
      defaultPermissions: P.All & ~P.RankOverall & ~P.GetBlood & ~P.AffectDynamicScore,
      challengeConfigs: [{ challengeId: secret.id, permissions: 0 }],
    })
    // Observers see everything but may submit nothing.
    const observers = await createDivision(server, game, { name: 'Observers', defaultPermissions: P.All & ~P.SubmitFlags })
    open = await createPlayer(server, game, { organization: openDivision })
    guest = await createPlayer(server, game, { organization: guests })
    observer = await createPlayer(server, game, { organization: observers })
    await createInstances(server, [open.participation, guest.participation, observer.participation], [shared, secret])
  })

  async function solve(p: Player, challenge: Challenge) {
    const id = await submit(p.client, game.id, challenge.id, 'flag{test}')
    expect(await settled(p.client, game.id, challenge.id, id)).toBe('Accepted')
  }

  it('shows a division only the challenges it may view and refuses what it may not do', async () => {
    const details = await guest.client.get<GameDetailModel>(`/api/game/${game.id}/details`)
    expect(details.status).toBe(200)
    expect(Object.values(details.body.challenges).flat().map((c) => c!.id)).toEqual([shared.id])
    expect(details.body.challengeCount).toBe(1)
    expect(details.text).not.toContain('OpenOnly')
    const full = await open.client.get<GameDetailModel>(`/api/game/${game.id}/details`)
    expect(full.body.challengeCount).toBe(2)

    expectError(await guest.client.get(`/api/game/${game.id}/challenges/${secret.id}`), 404, '题目未找到')
    expectError(await guest.client.post(submitPath(game.id, secret.id), { flag: 'flag{test}' }), 404, '题目未找到')
    expectError(await observer.client.post(submitPath(game.id, shared.id), { flag: 'flag{test}' }), 403, '你所在的分组无法提交此题')
    expect((await observer.client.get(`/api/game/${game.id}/challenges/${shared.id}`)).status).toBe(200)
    expect(await countRows(server, 'submissions', 'game_id = ?', [game.id])).toBe(0)
  })

  it('records solves that take no blood and move no score, ranks per division, overall only the ranked', async () => {
    await solve(guest, shared)
    let board = await eventually(game.id, (b) => b.items.some((i) => i.id === guest.team.id && i.solvedCount === 1))
    // The guest's solve scores (GetScore) but takes no blood and leaves the challenge at 500 with no counted solver.
    expect(board.challenges.Web![0]).toMatchObject({ id: shared.id, score: 500, solved: 0, bloods: [] })
    expect(board.items.find((i) => i.id === guest.team.id)!.challenges.find((c) => c.id === shared.id)).toMatchObject({ score: 500, type: 'Normal' })
    expect(await countRows(server, 'notices', "game_id = ? and type <> 'Normal'", [game.id])).toBe(0)

    await solve(open, shared)
    board = await eventually(game.id, (b) => b.challenges.Web![0]!.solved === 1)
    // The open team takes the first blood; one counted solve keeps the score at 500.
    expect(board.challenges.Web![0]!.bloods.map((b) => b.id)).toEqual([open.team.id])
    expect(board.items.map((i) => [i.id, i.rank, i.organization, i.divisionRank])).toEqual([
      [open.team.id, 1, 'Open', 1],
      [guest.team.id, 0, 'Guests', 1],
      [observer.team.id, 2, 'Observers', 1],
    ])
    expect(board.timeLines.all!.map((t) => t.id)).toEqual([open.team.id, observer.team.id])
    expect(board.timelines.map((t) => t.teams.map((x) => x.id))).toEqual([[open.team.id, observer.team.id], [open.team.id], [guest.team.id], [observer.team.id]])
    expect(board.divisions.map((d) => d.name)).toEqual(['Open', 'Guests', 'Observers'])
    // The anonymous board lists the challenges some team may view; nobody's invite code.
    expect(Object.values(board.challenges).flat().map((c) => c!.id).sort()).toEqual([shared.id, secret.id].sort())
    expect(JSON.stringify(board)).not.toContain('inviteCode')
    expect(await countRows(server, 'notices', "game_id = ? and type = 'FirstBlood'", [game.id])).toBe(1)
  })
})
