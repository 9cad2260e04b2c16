/**
 * Live team membership (docs/realtime.md#room-moves): after a join, kick, leave, transfer, update or delete has
 * committed, `ReceivedTeamUpdate` reaches the sockets of the team's members on `/hub/user`
 * (room `Team_{id}`); a non-member's socket hears nothing. A user who joins starts hearing the
 * team at once; one who is kicked or leaves hears that last change in their own room, then nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { rooms, type TeamUpdate } from '@flagwave/shared/events'
import { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { closeAllSockets, connect, joined, nextEvent, noEvent, serverRooms } from '../support/sockets.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

/** A user-hub socket of `user`, once the server has put it in its rooms. */
async function socketOf(user: TestUser, teamId?: number): Promise<Socket> {
  const socket = await connect(server, '/hub/user', { client: user.client })
  await joined(server, '/hub/user', socket, rooms.user(user.user.id))
  if (teamId !== undefined) await joined(server, '/hub/user', socket, rooms.teamMembers(teamId))
  return socket
}

async function setup() {
  const [captain, member, outsider] = await Promise.all([createUser(server), createUser(server), createUser(server)])
  const team = await createTeam(server, captain.user, [member.user])
  const [c, m, o] = await Promise.all([socketOf(captain, team.id), socketOf(member, team.id), socketOf(outsider)])
  const sockets = { captain: c, member: m, outsider: o }
  return { captain, member, outsider, team, sockets }
}

describe('ReceivedTeamUpdate', () => {
  it('a join by invite code reaches the members; the joiner hears later changes; outsiders hear nothing', async () => {
    const { captain, outsider, team, sockets } = await setup()
    const joiner = await createUser(server)
    const joinerSocket = await socketOf(joiner)
    const toCaptain = nextEvent<TeamUpdate>(sockets.captain, 'ReceivedTeamUpdate')
    const toMember = nextEvent<TeamUpdate>(sockets.member, 'ReceivedTeamUpdate')
    const toJoiner = nextEvent<TeamUpdate>(joinerSocket, 'ReceivedTeamUpdate')
    const quiet = noEvent(sockets.outsider, 'ReceivedTeamUpdate', 500)

    const code = (await captain.client.get(`/api/team/${team.id}/invite`)).body
    expect((await joiner.client.post('/api/team/accept', code)).status).toBe(200)

    for (const update of await Promise.all([toCaptain, toMember, toJoiner])) {
      expect(update.teamId).toBe(team.id)
      const info = TeamInfoModel.parse(update.team)
      expect(info.members!.map((m) => m.id)).toContain(joiner.user.id)
    }
    await quiet
    expect(serverRooms(server, '/hub/user', joinerSocket).has(rooms.teamMembers(team.id))).toBe(true)

    // The joiner now hears a later change (a bio update) like everybody else.
    const later = nextEvent<TeamUpdate>(joinerSocket, 'ReceivedTeamUpdate')
    expect((await captain.client.put(`/api/team/${team.id}`, { bio: 'fresh' })).status).toBe(200)
    expect((await later).team?.bio).toBe('fresh')
    void outsider
  })

  it('a kick reaches the remaining members and, once, the kicked user, who then hears nothing more', async () => {
    const { captain, member, team, sockets } = await setup()
    const toCaptain = nextEvent<TeamUpdate>(sockets.captain, 'ReceivedTeamUpdate')
    const toKicked = nextEvent<TeamUpdate>(sockets.member, 'ReceivedTeamUpdate')
    const quiet = noEvent(sockets.outsider, 'ReceivedTeamUpdate', 500)
    expect((await captain.client.post(`/api/team/${team.id}/kick/${member.user.id}`)).status).toBe(200)
    const [seen, kicked] = await Promise.all([toCaptain, toKicked])
    expect(seen.team?.members?.map((m) => m.id)).toEqual([captain.user.id])
    expect(kicked).toEqual(seen)
    await quiet
    expect(serverRooms(server, '/hub/user', sockets.member).has(rooms.teamMembers(team.id))).toBe(false)

    // Exactly once (not also through the team room), and nothing after.
    const noMore = noEvent(sockets.member, 'ReceivedTeamUpdate', 500)
    const captainHears = nextEvent<TeamUpdate>(sockets.captain, 'ReceivedTeamUpdate')
    expect((await captain.client.put(`/api/team/${team.id}`, { bio: 'after' })).status).toBe(200)
    await captainHears
    await noMore
  })

  it('a captain change reaches the members with the new captain flagged', async () => {
    const { captain, member, team, sockets } = await setup()
    const toMember = nextEvent<TeamUpdate>(sockets.member, 'ReceivedTeamUpdate')
    const toCaptain = nextEvent<TeamUpdate>(sockets.captain, 'ReceivedTeamUpdate')
    const quiet = noEvent(sockets.outsider, 'ReceivedTeamUpdate', 500)
    expect((await captain.client.put(`/api/team/${team.id}/transfer`, { newCaptainId: member.user.id })).status).toBe(200)
    for (const update of await Promise.all([toMember, toCaptain])) {
      expect(update.team?.members?.find((m) => m.captain)?.id).toBe(member.user.id)
    }
    await quiet
  })

  it('leaving reaches the others and the leaver; a deletion sends team: null to every former member', async () => {
    const { captain, member, team, sockets } = await setup()
    const toCaptain = nextEvent<TeamUpdate>(sockets.captain, 'ReceivedTeamUpdate')
    const toLeaver = nextEvent<TeamUpdate>(sockets.member, 'ReceivedTeamUpdate')
    expect((await member.client.post(`/api/team/${team.id}/leave`)).status).toBe(200)
    expect((await toCaptain).team?.members?.map((m) => m.id)).toEqual([captain.user.id])
    expect((await toLeaver).teamId).toBe(team.id)

    const deleted = nextEvent<TeamUpdate>(sockets.captain, 'ReceivedTeamUpdate')
    const leaverQuiet = noEvent(sockets.member, 'ReceivedTeamUpdate', 500)
    expect((await captain.client.delete(`/api/team/${team.id}`)).status).toBe(200)
    expect(await deleted).toEqual({ teamId: team.id, team: null })
    await leaverQuiet
    expect(serverRooms(server, '/hub/user', sockets.captain).has(rooms.teamMembers(team.id))).toBe(false)
  })

  it('a refused change pushes nothing', async () => {
    const { member, team, sockets } = await setup()
    const quiet = noEvent(sockets.captain, 'ReceivedTeamUpdate', 500)
    expect((await member.client.put(`/api/team/${team.id}`, { name: 'nope' })).status).toBe(403)
    await quiet
  })

  it('a team created over the API is heard by its creator at once', async () => {
    const founder = await createUser(server)
    const socket = await socketOf(founder)
    const res = await founder.client.post('/api/team', { name: 'fresh' })
    expect(res.status).toBe(200)
    await joined(server, '/hub/user', socket, rooms.teamMembers(res.body.id))
  })
})
