/**
 * Joining, leaving and reviewing (docs/compatibility.md#group-game-reading-and-joining, #group-admin): every join check in
 * the contract's order with nothing changed on a refusal, the side effects of a join and of a
 * review (team lock, instances, scoreboard rebuild), the participations list, and permissions.
 */
import { verify, createPublicKey } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { DetailedGameInfoModel } from '@flagwave/shared/schemas/games'
import { ParticipationInfoModel } from '@flagwave/shared/schemas/teams'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { blobExists, countRows, createChallenge, createGame, createParticipation, setWriteup } from '../support/factories/games.js'
import { Participation } from '../../server/src/entities/Participation.js'
import { Division } from '../../server/src/entities/Division.js'
import { Team } from '../../server/src/entities/Team.js'
import { User } from '../../server/src/entities/User.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import { SCOREBOARD_CHANNEL } from '../../server/src/domain/scoreboard/hooks.js'

let server: TestServer
let admin: ApiClient
let monitor: TestUser
let banned: TestUser
const HOUR = 3600_000

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
  monitor = await createUser(server, { role: 'Monitor' })
  banned = await createUser(server, { role: 'Banned' })
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const participationOf = (gameId: number, teamId: number) => em().findOne(Participation, { game: gameId, team: teamId }, { populate: ['division'] })
/** v0.17.6's organization of a participation: its division's name. */
const organizationOf = (p: Participation | null) => (p?.division as Division | null | undefined)?.name ?? null
const snapshot = async (gameId: number) => ({
  participations: await countRows(server, 'participations', 'game_id = ?', [gameId]),
  registrations: await countRows(server, 'registrations', 'game_id = ?', [gameId]),
  statuses: await em().getConnection().execute(`select id, status, division_id from participations where game_id = ? order by id`, [gameId]),
})

/** Wait for a scoreboard rebuild request (a NOTIFY on the scoreboard channel) for `gameId` while `action` runs. */
async function expectRebuild(gameId: number, action: () => Promise<unknown>, expected = true): Promise<void> {
  const client = new pg.Client({ connectionString: server.databaseUrl })
  await client.connect()
  const seen: string[] = []
  client.on('notification', (n) => {
    if (n.channel === SCOREBOARD_CHANNEL && n.payload) seen.push(n.payload)
  })
  await client.query(`LISTEN ${SCOREBOARD_CHANNEL}`)
  try {
    await action()
    const deadline = Date.now() + (expected ? 2000 : 300)
    while (Date.now() < deadline && !seen.includes(String(gameId))) await new Promise((r) => setTimeout(r, 20))
    expect(seen.includes(String(gameId))).toBe(expected)
  } finally {
    await client.end()
  }
}

async function addMember(teamId: number, userId: string): Promise<void> {
  const e = em()
  const team = await e.findOneOrFail(Team, { id: teamId }, { populate: ['members'] })
  team.members.add(e.getReference(User, userId))
  await e.flush()
}

async function player(): Promise<TestUser & { team: Team }> {
  const u = await createUser(server)
  const team = await createTeam(server, u.user)
  return { ...u, team }
}

describe('POST /api/game/{id} — join', () => {
  it('joins with a team: pending participation with a valid team token, registration, organization', async () => {
    const game = await createGame(server, { organizations: ['Org A', 'Org B'] })
    const p = await player()
    const res = await p.client.post(`/api/game/${game.id}`, { teamId: p.team.id, organization: 'Org B' })
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    const part = await participationOf(game.id, p.team.id)
    expect(part).toMatchObject({ status: 'Pending' })
    expect(organizationOf(part)).toBe('Org B')
    const [teamId, signature] = part!.token.split(':')
    expect(Number(teamId)).toBe(p.team.id)
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(game.publicKey, 'base64').toString('base64url') }, format: 'jwk' })
    expect(verify(null, Buffer.from(`GZCTF_TEAM_${p.team.id}`), key, Buffer.from(signature!, 'base64'))).toBe(true)
    expect(await countRows(server, 'registrations', 'game_id = ? and user_id = ?', [game.id, p.user.id])).toBe(1)

    const info = await p.client.get(`/api/game/${game.id}`)
    expect(DetailedGameInfoModel.parse(info.body)).toMatchObject({ status: 'Pending', teamName: p.team.name, organization: 'Org B', teamCount: 1 })
    const logs = await em().getConnection().execute(`select message, user_name from logs where message like ?`, [`%${p.team.name}%成功报名%`])
    expect(logs).toHaveLength(1)
  })

  it('a second member joins the same participation and overwrites its organization', async () => {
    const game = await createGame(server, { organizations: ['X', 'Y'] })
    const captain = await createUser(server)
    const mate = await createUser(server)
    const team = await createTeam(server, captain.user, [mate.user])
    expect((await captain.client.post(`/api/game/${game.id}`, { teamId: team.id, organization: 'X' })).status).toBe(200)
    expect((await mate.client.post(`/api/game/${game.id}`, { teamId: team.id, organization: 'Y' })).status).toBe(200)
    expect(await countRows(server, 'participations', 'game_id = ?', [game.id])).toBe(1)
    expect(await countRows(server, 'registrations', 'game_id = ?', [game.id])).toBe(2)
    expect(organizationOf(await participationOf(game.id, team.id))).toBe('Y')
  })

  it('checks in the contract order and changes nothing on a refusal', { timeout: 120_000 }, async () => {
    const ended = await createGame(server, { practiceMode: false, start: new Date(Date.now() - 3 * HOUR), end: new Date(Date.now() - HOUR), inviteCode: 'secret', organizations: ['A'] })
    const game = await createGame(server, { inviteCode: 'secret', organizations: ['A'], teamMemberCountLimit: 1 })
    const p = await player()
    const stranger = await player()
    const other = await player()
    const before = await snapshot(game.id)
    const expectRefusal = async (client: ApiClient, gameId: number, body: unknown, status: number, title: string) => {
      const res = await client.post(`/api/game/${gameId}`, body)
      expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status } })
    }
    await expectRefusal(p.client, 999999, { teamId: p.team.id }, 404, '比赛未找到')
    await expectRefusal(p.client, ended.id, { teamId: 999999, inviteCode: 'wrong', organization: 'Z' }, 400, '比赛已结束')
    await expectRefusal(p.client, game.id, { teamId: 999999, inviteCode: 'wrong', organization: 'Z' }, 400, '比赛邀请码错误')
    await expectRefusal(p.client, game.id, { teamId: 999999, inviteCode: 'secret', organization: 'Z' }, 400, '无效的参赛单位')
    await expectRefusal(p.client, game.id, { teamId: 999999, inviteCode: 'secret', organization: 'A' }, 404, '队伍未找到')
    await expectRefusal(p.client, game.id, { inviteCode: 'secret', organization: 'A' }, 404, '队伍未找到')
    await expectRefusal(p.client, game.id, { teamId: stranger.team.id, inviteCode: 'secret', organization: 'A' }, 400, '您不是此队伍的队员')
    expect(await snapshot(game.id)).toEqual(before)

    // already registered: through another team, and through the same team
    const mateTeam = await createTeam(server, other.user, [p.user])
    await createParticipation(server, game, p.team, [p.user], 'Pending')
    const registered = await snapshot(game.id)
    await expectRefusal(p.client, game.id, { teamId: mateTeam.id, inviteCode: 'secret', organization: 'A' }, 400, '您已经在其他队伍报名参赛')
    await expectRefusal(p.client, game.id, { teamId: p.team.id, inviteCode: 'secret', organization: 'A' }, 400, '您已经在其他队伍报名参赛')
    // member limit (1): mateTeam's participation already has `other` registered
    await createParticipation(server, game, mateTeam, [other.user], 'Pending')
    const full = await snapshot(game.id)
    expect(full.registrations).toBe(registered.registrations + 1)
    const fresh = await createUser(server)
    await addMember(mateTeam.id, fresh.user.id)
    await expectRefusal(fresh.client, game.id, { teamId: mateTeam.id, inviteCode: 'secret', organization: 'A' }, 400, '队伍参与人数超过比赛限制')
    expect(await snapshot(game.id)).toEqual(full)
  })

  it('a rejected registration is replaced and the participation goes back to Pending', async () => {
    const game = await createGame(server)
    const p = await player()
    const rejected = await createParticipation(server, game, p.team, [p.user], 'Rejected')
    expect((await p.client.post(`/api/game/${game.id}`, { teamId: p.team.id, organization: 'ignored' })).status).toBe(200)
    const part = await participationOf(game.id, p.team.id)
    expect(part!.id).toBe(rejected.id)
    expect(part!.status).toBe('Pending')
    // A game without divisions ignores the organization a join names (docs/scoring.md#divisions).
    expect(organizationOf(part)).toBeNull()
    expect(await countRows(server, 'registrations', 'game_id = ? and user_id = ?', [game.id, p.user.id])).toBe(1)

    // moving from a rejected team to another team
    const game2 = await createGame(server)
    await createParticipation(server, game2, p.team, [p.user], 'Rejected')
    const other = await createTeam(server, p.user)
    expect((await p.client.post(`/api/game/${game2.id}`, { teamId: other.id })).status).toBe(200)
    const reg = await em().getConnection().execute(`select p.team_id from registrations r join participations p on p.id = r.participation_id where r.user_id = ? and r.game_id = ?`, [p.user.id, game2.id])
    expect(reg).toEqual([{ team_id: other.id }])
  })

  it('acceptWithoutReview accepts at once: team locked, instances of enabled challenges, scoreboard rebuild', async () => {
    const game = await createGame(server, { acceptWithoutReview: true })
    const enabled = await createChallenge(server, game)
    await createChallenge(server, game, { isEnabled: false })
    const p = await player()
    await expectRebuild(game.id, async () => {
      expect((await p.client.post(`/api/game/${game.id}`, { teamId: p.team.id })).status).toBe(200)
    })
    const part = await participationOf(game.id, p.team.id)
    expect(part!.status).toBe('Accepted')
    expect((await em().findOneOrFail(Team, { id: p.team.id })).locked).toBe(true)
    const instances = await em().find(GameInstance, { participation: part!.id })
    expect(instances.map((i) => (i.challenge as { id: number }).id)).toEqual([enabled.id])
    expect(instances[0]!.isLoaded).toBe(false)
  })

  it('an ended game in practice mode still takes registrations, hidden or not started games too', async () => {
    const practice = await createGame(server, { practiceMode: true, start: new Date(Date.now() - 3 * HOUR), end: new Date(Date.now() - HOUR) })
    const hidden = await createGame(server, { hidden: true, start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
    const p = await player()
    expect((await p.client.post(`/api/game/${practice.id}`, { teamId: p.team.id })).status).toBe(200)
    expect((await p.client.post(`/api/game/${hidden.id}`, { teamId: p.team.id })).status).toBe(200)
    expect(await countRows(server, 'registrations', 'user_id = ?', [p.user.id])).toBe(2)
  })

  it('validates the body, and refuses anonymous and banned callers', async () => {
    const game = await createGame(server)
    const p = await player()
    const bad = await p.client.post(`/api/game/${game.id}`, { teamId: 'abc' })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ title: 'The JSON value could not be converted to System.Int32.', status: 400 })
    expect((await server.client().post(`/api/game/${game.id}`, { teamId: p.team.id })).body).toEqual({ title: '请先登录', status: 401 })
    const forbidden = await banned.client.post(`/api/game/${game.id}`, { teamId: p.team.id })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ title: '无权访问', status: 403 })
    expect(await countRows(server, 'participations', 'game_id = ?', [game.id])).toBe(0)
  })
})

describe('DELETE /api/game/{id} — leave', () => {
  it('removes the registration; the last member deletes the participation and releases its write-up', async () => {
    const game = await createGame(server)
    const captain = await createUser(server)
    const mate = await createUser(server)
    const team = await createTeam(server, captain.user, [mate.user])
    const part = await createParticipation(server, game, team, [captain.user, mate.user], 'Pending')
    const writeup = await setWriteup(server, part)
    expect((await mate.client.delete(`/api/game/${game.id}`)).status).toBe(200)
    expect(await countRows(server, 'registrations', 'participation_id = ?', [part.id])).toBe(1)
    expect(await participationOf(game.id, team.id)).not.toBeNull()

    const res = await captain.client.delete(`/api/game/${game.id}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await participationOf(game.id, team.id)).toBeNull()
    expect(await blobExists(server, writeup.hash)).toBe(false)
    const logs = await em().getConnection().execute(`select 1 from logs where message like ?`, [`%${team.name}%退出了比赛%`])
    expect(logs.length).toBeGreaterThan(0)
  })

  it('refuses unknown games, unjoined games and accepted or suspended participations', async () => {
    const game = await createGame(server)
    const p = await player()
    expect((await p.client.delete('/api/game/999999')).body).toEqual({ title: '比赛未找到', status: 404 })
    const notJoined = await p.client.delete(`/api/game/${game.id}`)
    expect({ status: notJoined.status, body: notJoined.body }).toEqual({ status: 400, body: { title: '无法退出未报名的比赛', status: 400 } })
    for (const status of ['Accepted', 'Suspended'] as const) {
      const g = await createGame(server)
      await createParticipation(server, g, p.team, [p.user], status)
      const res = await p.client.delete(`/api/game/${g.id}`)
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { title: '审核通过后无法退出比赛', status: 400 } })
      expect(await countRows(server, 'registrations', 'game_id = ?', [g.id])).toBe(1)
    }
    const rejected = await createGame(server)
    await createParticipation(server, rejected, p.team, [p.user], 'Rejected')
    expect((await p.client.delete(`/api/game/${rejected.id}`)).status).toBe(200)
    expect((await server.client().delete(`/api/game/${game.id}`)).status).toBe(401)
    expect((await banned.client.delete(`/api/game/${game.id}`)).status).toBe(403)
  })
})

describe('GET /api/game/{id}/participations', () => {
  it('lists every participation by team id with detailed members and registered members (Admin)', { timeout: 120_000 }, async () => {
    const game = await createGame(server)
    const a = await player()
    const b = await player()
    const mate = await createUser(server, { realName: 'Mate', stdNumber: '42', phone: '+1 555 0100' })
    await addMember(b.team.id, mate.user.id)
    await createParticipation(server, game, b.team, [b.user], 'Pending', null)
    await createParticipation(server, game, a.team, [a.user], 'Rejected', 'Org')
    const res = await admin.get(`/api/game/${game.id}/participations`)
    expect(res.status).toBe(200)
    const list = z.array(ParticipationInfoModel).parse(res.body)
    expect(list.map((p) => p.team.id)).toEqual([a.team.id, b.team.id].sort((x, y) => x - y))
    const rowB = list.find((p) => p.team.id === b.team.id)!
    expect(rowB.status).toBe('Pending')
    expect(rowB.registeredMembers).toEqual([b.user.id])
    expect(rowB.team.members!.map((m) => m.userId).sort()).toEqual([b.user.id, mate.user.id].sort())
    expect(rowB.team.members!.find((m) => m.userId === mate.user.id)).toMatchObject({ realName: 'Mate', stdNumber: '42', phone: '+1 555 0100' })
    expect(rowB.team.captainId).toBe(b.user.id)
    expect(list.find((p) => p.team.id === a.team.id)!.organization).toBe('Org')
  })

  it('answers 404 with body status 400, and only to admins', async () => {
    expect(await admin.get('/api/game/999999/participations').then((r) => [r.status, r.body])).toEqual([404, { title: '比赛未找到', status: 400 }])
    const game = await createGame(server)
    expect((await monitor.client.get(`/api/game/${game.id}/participations`)).status).toBe(403)
    expect((await (await createUser(server)).client.get(`/api/game/${game.id}/participations`)).status).toBe(403)
    expect((await server.client().get(`/api/game/${game.id}/participations`)).status).toBe(401)
  })
})

describe('PUT /api/admin/participation/{id}/{status}', () => {
  it('accepting locks the team, creates instances of enabled challenges and requests a scoreboard rebuild', async () => {
    const game = await createGame(server)
    const c1 = await createChallenge(server, game)
    const c2 = await createChallenge(server, game, { type: 'DynamicContainer' })
    await createChallenge(server, game, { isEnabled: false })
    const p = await player()
    const part = await createParticipation(server, game, p.team, [p.user], 'Pending')
    await expectRebuild(game.id, async () => {
      const res = await admin.put(`/api/admin/participation/${part.id}/Accepted`)
      expect(res.status).toBe(200)
      expect(res.text).toBe('')
    })
    expect((await participationOf(game.id, p.team.id))!.status).toBe('Accepted')
    expect((await em().findOneOrFail(Team, { id: p.team.id })).locked).toBe(true)
    const instances = await em().find(GameInstance, { participation: part.id }, { orderBy: { challenge: { id: 'asc' } } })
    expect(instances.map((i) => (i.challenge as { id: number }).id)).toEqual([c1.id, c2.id])
    expect(instances.every((i) => !i.isLoaded && i.dynamicFlag === null)).toBe(true)
    const logs = await em().getConnection().execute(`select user_name from logs where message like ?`, [`%${p.team.name}%待审核 → 已通过%`])
    expect(logs).toEqual([{ user_name: 'Admin' }])

    // re-accepting (e.g. after a suspension) keeps the instances and refreshes the board again
    await expectRebuild(game.id, async () => expect((await admin.put(`/api/admin/participation/${part.id}/suspended`)).status).toBe(200))
    await expectRebuild(game.id, async () => expect((await admin.put(`/api/admin/participation/${part.id}/1`)).status).toBe(200))
    expect(await countRows(server, 'instances', 'participation_id = ?', [part.id])).toBe(2)
    expect((await participationOf(game.id, p.team.id))!.status).toBe('Accepted')
  })

  it('suspending a pending team refreshes the board only while the game runs; any status may be set', async () => {
    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
    const p = await player()
    const part = await createParticipation(server, future, p.team, [p.user], 'Pending')
    await expectRebuild(future.id, async () => expect((await admin.put(`/api/admin/participation/${part.id}/Suspended`)).status).toBe(200), false)
    const running = await createGame(server)
    const part2 = await createParticipation(server, running, p.team, [p.user], 'Pending')
    await expectRebuild(running.id, async () => expect((await admin.put(`/api/admin/participation/${part2.id}/Suspended`)).status).toBe(200))
    expect((await admin.put(`/api/admin/participation/${part2.id}/Unsubmitted`)).status).toBe(200)
    expect((await participationOf(running.id, p.team.id))!.status).toBe('Unsubmitted')
    expect((await em().findOneOrFail(Team, { id: p.team.id })).locked).toBe(false)
  })

  it('refuses unknown statuses (400) before unknown participations (404), and non-admins', async () => {
    const game = await createGame(server)
    const p = await player()
    const part = await createParticipation(server, game, p.team, [p.user], 'Pending')
    for (const v of ['Foo', '9', '1.5']) {
      const res = await admin.put(`/api/admin/participation/999999/${v}`)
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { title: `The value '${v}' is not valid.`, status: 400 } })
    }
    const missing = await admin.put('/api/admin/participation/999999/Accepted')
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 404, body: { title: '参与状态未找到', status: 404 } })
    expect((await p.client.put(`/api/admin/participation/${part.id}/Accepted`)).status).toBe(403)
    expect((await monitor.client.put(`/api/admin/participation/${part.id}/Accepted`)).status).toBe(403)
    expect((await server.client().put(`/api/admin/participation/${part.id}/Accepted`)).status).toBe(401)
    expect((await participationOf(game.id, p.team.id))!.status).toBe('Pending')
    expect(await countRows(server, 'instances', 'participation_id = ?', [part.id])).toBe(0)
  })
})
