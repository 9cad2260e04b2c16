/**
 * Reviews move open sockets (docs/realtime.md#room-moves): when a participation is accepted, its registered members'
 * already-open user-hub sockets watching that game join the team-private room at once (no
 * reconnect needed); a suspension takes them out again. Sockets watching another game, and other
 * teams, hear nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { rooms, type SubmissionResult } from '@flagwave/shared/events'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { closeAllSockets, connect, joined, nextEvent, noEvent, serverRooms } from '../support/sockets.js'
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
})
