/**
 * Reviews move open sockets (docs/realtime.md#room-moves): when a participation is accepted, its registered members'
 * already-open user-hub sockets watching that game join the team-private room at once (no
 * reconnect needed); a suspension takes them out again. Sockets watching another game, and other
 * teams, hear nothing.
 *
 * Every review is also pushed to the registered members themselves (`ReceivedParticipationUpdate`
 * in their own room, whatever they watch), and only to them: what `GET /api/game/{id}` then answers
 * each of them, no one else.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { rooms, type ParticipationUpdate, type SubmissionResult } from '@flagwave/shared/events'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { closeAllSockets, connect, joined, nextEvent, noEvent, serverRooms, type ReceivedEvent } from '../support/sockets.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createGame, createParticipation } from '../support/factories/games.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  await server?.close()
})

const result = (id: number): SubmissionResult => ({ id, challengeId: 7, status: 'Accepted' })

describe('team room membership follows the review', () => {
  it('an accepted member’s open socket receives team-room events; suspension removes it', { timeout: 120_000 }, async () => {
    const game = await createGame(server)
    const otherGame = await createGame(server)
    const member = await createUser(server)
    const mate = await createUser(server)
    const rival = await createUser(server)
    const team = await createTeam(server, member.user, [mate.user])
    const rivalTeam = await createTeam(server, rival.user)
    const part = await createParticipation(server, game, team, [member.user, mate.user], 'Pending')
    const rivalPart = await createParticipation(server, game, rivalTeam, [rival.user], 'Pending')
    const teamRoom = rooms.team(game.id, part.id)

    const watching = await connect(server, '/hub/user', { game: game.id, client: member.client })
    const mateSocket = await connect(server, '/hub/user', { game: game.id, client: mate.client })
    const elsewhere = await connect(server, '/hub/user', { game: otherGame.id, client: member.client })
    const rivalSocket = await connect(server, '/hub/user', { game: game.id, client: rival.client })
    for (const s of [watching, mateSocket, rivalSocket]) await joined(server, '/hub/user', s, rooms.game(game.id))
    await joined(server, '/hub/user', elsewhere, rooms.game(otherGame.id))
    expect(serverRooms(server, '/hub/user', watching).has(teamRoom)).toBe(false)

    expect((await admin.put(`/api/admin/participation/${part.id}/Accepted`)).status).toBe(200)
    expect(serverRooms(server, '/hub/user', watching).has(teamRoom)).toBe(true)
    expect(serverRooms(server, '/hub/user', elsewhere).has(teamRoom)).toBe(false)

    const got = Promise.all([nextEvent<SubmissionResult>(watching, 'ReceivedSubmissionResult'), nextEvent<SubmissionResult>(mateSocket, 'ReceivedSubmissionResult')])
    const silent = Promise.all([noEvent(elsewhere, 'ReceivedSubmissionResult'), noEvent(rivalSocket, 'ReceivedSubmissionResult')])
    server.services.realtime.publish('user', teamRoom, 'ReceivedSubmissionResult', result(1))
    expect(await got).toEqual([result(1), result(1)])
    await silent

    // the rival team's own acceptance does not leak into this team's room
    expect((await admin.put(`/api/admin/participation/${rivalPart.id}/Accepted`)).status).toBe(200)
    const quiet = noEvent(rivalSocket, 'ReceivedSubmissionResult')
    const again = nextEvent(watching, 'ReceivedSubmissionResult')
    server.services.realtime.publish('user', teamRoom, 'ReceivedSubmissionResult', result(2))
    expect(await again).toEqual(result(2))
    await quiet

    expect((await admin.put(`/api/admin/participation/${part.id}/Suspended`)).status).toBe(200)
    expect(serverRooms(server, '/hub/user', watching).has(teamRoom)).toBe(false)
    const none = Promise.all([noEvent(watching, 'ReceivedSubmissionResult'), noEvent(mateSocket, 'ReceivedSubmissionResult')])
    server.services.realtime.publish('user', teamRoom, 'ReceivedSubmissionResult', result(3))
    await none
  })

  it('joining a game accepted without review, or an already accepted team, puts the joiner’s socket in the room', async () => {
    const game = await createGame(server, { acceptWithoutReview: true })
    const captain = await createUser(server)
    const mate = await createUser(server)
    const team = await createTeam(server, captain.user, [mate.user])
    const captainSocket = await connect(server, '/hub/user', { game: game.id, client: captain.client })
    const mateSocket = await connect(server, '/hub/user', { game: game.id, client: mate.client })
    await joined(server, '/hub/user', captainSocket, rooms.game(game.id))
    await joined(server, '/hub/user', mateSocket, rooms.game(game.id))

    expect((await captain.client.post(`/api/game/${game.id}`, { teamId: team.id })).status).toBe(200)
    const partId = (await server.services.orm.em.fork().getConnection().execute<{ id: number }[]>('select id from participations where game_id = ? and team_id = ?', [game.id, team.id]))[0]!.id
    const teamRoom = rooms.team(game.id, partId)
    expect(serverRooms(server, '/hub/user', captainSocket).has(teamRoom)).toBe(true)
    expect(serverRooms(server, '/hub/user', mateSocket).has(teamRoom)).toBe(false)

    expect((await mate.client.post(`/api/game/${game.id}`, { teamId: team.id })).status).toBe(200)
    expect(serverRooms(server, '/hub/user', mateSocket).has(teamRoom)).toBe(true)
    const got = nextEvent(mateSocket, 'ReceivedSubmissionResult')
    server.services.realtime.publish('user', teamRoom, 'ReceivedSubmissionResult', result(4))
    expect(await got).toEqual(result(4))
  })

  it('the joiner of a game accepted without review hears the acceptance in their own room', async () => {
    const game = await createGame(server, { acceptWithoutReview: true })
    const captain = await createUser(server)
    const team = await createTeam(server, captain.user)
    const socket = await connect(server, '/hub/user', { client: captain.client })
    await joined(server, '/hub/user', socket, rooms.user(captain.user.id))
    const heard = nextEvent<ParticipationUpdate>(socket, 'ReceivedParticipationUpdate')
    expect((await captain.client.post(`/api/game/${game.id}`, { teamId: team.id })).status).toBe(200)
    const partId = (await server.services.orm.em.fork().getConnection().execute<{ id: number }[]>('select id from participations where game_id = ? and team_id = ?', [game.id, team.id]))[0]!.id
    expect(await heard).toEqual({ gameId: game.id, participationId: partId, status: 'Accepted' })
  })
})

describe('a review is pushed to the participation’s registered members, and only to them', () => {
  it('accept, reject, suspend: every socket of each registered member hears the status REST then answers; nobody else hears anything', { timeout: 120_000 }, async () => {
    const game = await createGame(server)
    const upcoming = await createGame(server, { start: new Date(Date.now() + 3600_000), end: new Date(Date.now() + 7200_000) })
    const captain = await createUser(server)
    const mate = await createUser(server)
    // In the team but not registered for the game: REST shows them `Unsubmitted`.
    const bystander = await createUser(server)
    const rival = await createUser(server)
    const outsider = await createUser(server)
    const team = await createTeam(server, captain.user, [mate.user, bystander.user])
    const rivalTeam = await createTeam(server, rival.user)
    const part = await createParticipation(server, game, team, [captain.user, mate.user], 'Pending')
    const rivalPart = await createParticipation(server, game, rivalTeam, [rival.user], 'Pending')
    const early = await createParticipation(server, upcoming, team, [captain.user], 'Pending')

    // Members listen from anywhere: the game room, no game (the game page), another game.
    const heard = new Map<string, ReceivedEvent[]>()
    const listen = async (name: string, client: ApiClient | null, userId: string | null, gameId?: number) => {
      const record: ReceivedEvent[] = []
      heard.set(name, record)
      const socket = await connect(server, '/hub/user', { game: gameId, client: client ?? undefined, record })
      await joined(server, '/hub/user', socket, userId ? rooms.user(userId) : rooms.everyone)
      return socket
    }
    const captainInGame = await listen('captain in the game', captain.client, captain.user.id, game.id)
    await listen('captain without a game', captain.client, captain.user.id)
    await listen('mate in another game', mate.client, mate.user.id, (await createGame(server)).id)
    await listen('bystander in the game', bystander.client, bystander.user.id, game.id)
    await listen('bystander without a game', bystander.client, bystander.user.id)
    await listen('rival in the game', rival.client, rival.user.id, game.id)
    await listen('outsider', outsider.client, outsider.user.id, game.id)
    await listen('anonymous', null, null, game.id)
    const adminRecord: ReceivedEvent[] = []
    heard.set('admin', adminRecord)
    const adminSocket = await connect(server, '/hub/user', { game: game.id, client: admin, record: adminRecord })
    await joined(server, '/hub/user', adminSocket, rooms.game(game.id))
    const members = ['captain in the game', 'captain without a game', 'mate in another game']
    const teamRoom = rooms.team(game.id, part.id)

    const pushes = () => new Map([...heard].map(([name, record]) => [name, record.filter((e) => e.event === 'ReceivedParticipationUpdate').map((e) => e.payload)]))
    /** Until every named socket heard `count` pushes (10 s at most), then 300 ms more for pushes that must not come. */
    const settle = async (names: string[] = [], count = 0) => {
      const deadline = Date.now() + 10_000
      while (names.some((name) => (pushes().get(name)?.length ?? 0) < count) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
      await new Promise((r) => setTimeout(r, 300))
    }

    const steps: ['Accepted' | 'Rejected' | 'Suspended' | 'Pending', number][] = [['Accepted', part.id], ['Suspended', part.id], ['Rejected', part.id]]
    const expected: ParticipationUpdate[] = []
    for (const [status, id] of steps) {
      const arrived = nextEvent<ParticipationUpdate>(captainInGame, 'ReceivedParticipationUpdate')
      expect((await admin.put(`/api/admin/participation/${id}/${status}`)).status).toBe(200)
      expect(await arrived).toEqual({ gameId: game.id, participationId: part.id, status })
      // The push follows the room move: on acceptance the socket is already in the team room.
      expect(serverRooms(server, '/hub/user', captainInGame).has(teamRoom)).toBe(status === 'Accepted')
      expected.push({ gameId: game.id, participationId: part.id, status })
      await settle(members, expected.length)
      const got = pushes()
      for (const name of members) expect(got.get(name), name).toEqual(expected)
      for (const [name, list] of got) if (!members.includes(name)) expect(list, name).toEqual([])
      // What the push said is what REST answers the members; the bystander still reads `Unsubmitted`.
      for (const client of [captain.client, mate.client]) expect((await client.get(`/api/game/${game.id}`)).body).toMatchObject({ status })
      expect((await bystander.client.get(`/api/game/${game.id}`)).body).toMatchObject({ status: 'Unsubmitted' })
    }

    // Setting the status it already has changes nothing and pushes nothing.
    expect((await admin.put(`/api/admin/participation/${part.id}/Rejected`)).status).toBe(200)
    await settle()
    for (const name of members) expect(pushes().get(name), name).toEqual(expected)

    // The rival's review reaches the rival only.
    expect((await admin.put(`/api/admin/participation/${rivalPart.id}/Rejected`)).status).toBe(200)
    await settle(['rival in the game'], 1)
    expect(pushes().get('rival in the game')).toEqual([{ gameId: game.id, participationId: rivalPart.id, status: 'Rejected' }])
    for (const name of members) expect(pushes().get(name), name).toEqual(expected)

    // A game that has not started (its room refuses players): the registered captain hears it on
    // every socket anyway, the mate (not registered there) does not.
    expect((await admin.put(`/api/admin/participation/${early.id}/Accepted`)).status).toBe(200)
    await settle(['captain in the game', 'captain without a game'], expected.length + 1)
    const upcomingUpdate = { gameId: upcoming.id, participationId: early.id, status: 'Accepted' }
    expect(pushes().get('captain in the game')).toEqual([...expected, upcomingUpdate])
    expect(pushes().get('captain without a game')).toEqual([...expected, upcomingUpdate])
    expect(pushes().get('mate in another game')).toEqual(expected)
    for (const name of ['bystander in the game', 'bystander without a game', 'outsider', 'anonymous', 'admin']) expect(pushes().get(name), name).toEqual([])

    // A refused review (unknown participation, invalid status) pushes nothing.
    const missing = await admin.put('/api/admin/participation/999999/Accepted')
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ title: '参与状态未找到', status: 404 })
    const invalid = await admin.put(`/api/admin/participation/${part.id}/Bogus`)
    expect(invalid.status).toBe(400)
    expect(invalid.body).toMatchObject({ status: 400 })
    await settle()
    expect(pushes().get('captain in the game')).toEqual([...expected, upcomingUpdate])
  })
})
