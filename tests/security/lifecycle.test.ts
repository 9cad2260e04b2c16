/**
 * Account and team lifecycle attacks, against the running server (docs/compatibility.md#registering-a-pending-e-mail-again,
 * #identity-rules, #group-team, #deliberate-departures; docs/realtime.md#room-moves):
 *
 * - pre-registering someone's address: registering a pending e-mail again replaces the pending
 *   account's name and password and voids its old password, links and sessions; a confirmed
 *   account is never taken; racing registrations make one account and never a 500;
 * - a user name spelled like another account's e-mail neither exists nor catches its sign-in;
 * - a member who leaves or is kicked stops playing for the team (registrations, submissions,
 *   the game's team room); a captain may remove a member who does not play in the locked game;
 *   kicks and leaves racing the member's own game registration leave no stray registration.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { rooms, type SubmissionResult } from '@flagwave/shared/events'
import { RegisterResponse } from '@flagwave/shared/schemas/account'
import { User } from '../../server/src/entities/User.js'
import { Registration } from '../../server/src/entities/Registration.js'
import { Team } from '../../server/src/entities/Team.js'
import { DEFAULT_SETTINGS, type AccountPolicy } from '../../server/src/domain/config/settings.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam, reloadTeam } from '../support/factories/teams.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { createInstances, isolateIds, submit, submitPath } from '../support/factories/play.js'
import { closeAllSockets, connect, disconnected, joined, nextEvent, noEvent, serverRooms } from '../support/sockets.js'
import type { ApiClient, ApiResponse } from '../support/client.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  admin = await server.admin()
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const hex = (n = 3) => randomBytes(n).toString('hex')
const HOUR = 3600_000
const ATTACKER_PASSWORD = 'Attack3rPass'
const VICTIM_PASSWORD = 'V1ctimPass'

function expectError(res: ApiResponse, status: number, title: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status } })
}

async function setPolicy(policy: Partial<AccountPolicy>): Promise<void> {
  await server.services.settings.update(em(), { accountPolicy: { ...DEFAULT_SETTINGS.accountPolicy, ...policy } })
}

const register = (client: ApiClient, userName: string, password: string, email: string) => client.post('/api/account/register', { userName, password, email })
const login = (userName: string, password: string) => server.client().post('/api/account/login', { userName, password })
const accountsWith = (email: string) => em().find(User, { normalizedEmail: email.toUpperCase() })

interface MailedLink {
  /** The user name the mail greets. */
  userName: string
  body: { token: string; email: string }
}

/** Every verification mail sent to `to` so far, oldest first. */
function verifyMails(to: string): MailedLink[] {
  return server.services.mailer.recent
    .filter((m) => m.to === to && /\/account\/verify\?/.test(m.text))
    .map((m) => {
      const link = /\/account\/verify\?token=([^&\s]+)&email=([^&\s]+)/.exec(m.text)!
      return { userName: /^(.*)，你好！/.exec(m.text)![1], body: { token: link[1], email: link[2] } }
    })
}

// ---------------------------------------------------------------------------------------------

describe('registering the e-mail of a pending account', () => {
  beforeEach(() => setPolicy({ activeOnRegister: false, emailConfirmationRequired: true }))

  it('gives the victim an account with the victim’s name and password only; the attacker’s password and link are dead', async () => {
    const email = `victim${hex()}@example.com`
    const attackerName = `att${hex()}`
    const victimName = `vic${hex()}`
    // The attacker registers the victim's address first and never confirms.
    expect(RegisterResponse.parse((await register(server.client(), attackerName, ATTACKER_PASSWORD, email)).body).data).toBe('EmailConfirmationRequired')
    const [attackerLink] = verifyMails(email)

    const res = await register(server.client(), victimName, VICTIM_PASSWORD, email)
    expect(res.status).toBe(200)
    expect(RegisterResponse.parse(res.body)).toEqual({ title: '注册成功，等待邮箱验证', data: 'EmailConfirmationRequired', status: 200 })
    const accounts = await accountsWith(email)
    expect(accounts).toHaveLength(1)
    expect(accounts[0]).toMatchObject({ userName: victimName, emailConfirmed: false })
    const victimLink = verifyMails(email).at(-1)!
    expect(victimLink.userName).toBe(victimName)

    // The attacker's link no longer confirms anything.
    expectError(await server.client().post('/api/account/verify', attackerLink.body), 401, '邮箱验证失败')
    expect((await accountsWith(email))[0].emailConfirmed).toBe(false)

    // The victim's link confirms the victim's account and signs the victim in.
    const browser = server.client()
    expect((await browser.post('/api/account/verify', victimLink.body)).status).toBe(200)
    expect((await browser.get('/api/account/profile')).body).toMatchObject({ userName: victimName, email })

    // The attacker's password works under no name; the victim's works under both.
    for (const name of [email, attackerName, victimName]) expectError(await login(name, ATTACKER_PASSWORD), 401, '用户名或密码错误')
    for (const name of [email, victimName]) expect((await login(name, VICTIM_PASSWORD)).status).toBe(200)
    // Neither the attacker's name nor a second account is left behind.
    expect(await em().count(User, { normalizedUserName: attackerName.toUpperCase() })).toBe(0)
  })

  it('ends the pending account’s sessions and sockets', async () => {
    // A pending account with a session: signed in at registration, then unconfirmed by an admin.
    await setPolicy({ activeOnRegister: true })
    const email = `victim${hex()}@example.com`
    const attacker = server.client()
    expect((await register(attacker, `att${hex()}`, ATTACKER_PASSWORD, email)).status).toBe(200)
    const [row] = await accountsWith(email)
    expect((await admin.put(`/api/admin/users/${row.id}`, { emailConfirmed: false })).status).toBe(200)
    expect((await attacker.get('/api/account/profile')).status).toBe(200)
    const socket = await connect(server, '/hub/user', { client: attacker })
    await joined(server, '/hub/user', socket, rooms.user(row.id))

    await setPolicy({ activeOnRegister: false, emailConfirmationRequired: true })
    expect((await register(server.client(), `vic${hex()}`, VICTIM_PASSWORD, email)).status).toBe(200)
    expectError(await attacker.get('/api/account/profile'), 401, '请先登录')
    expect(await disconnected(socket)).toBe('io server disconnect')
  })

  it('never takes a confirmed account, nor another account’s user name', async () => {
    const owner = await createUser(server)
    const pendingEmail = `pending${hex()}@example.com`
    const pendingName = `pen${hex()}`
    await register(server.client(), pendingName, ATTACKER_PASSWORD, pendingEmail)
    const [pending] = await accountsWith(pendingEmail)
    const users = await em().count(User, {})

    expectError(await register(server.client(), `x${hex()}`, ATTACKER_PASSWORD, owner.user.email), 400, '此账户已存在')
    // Registering the pending e-mail again under the confirmed account's name (any case).
    const stolenName = owner.user.userName.toUpperCase()
    expectError(await register(server.client(), stolenName, ATTACKER_PASSWORD, pendingEmail), 400, `用户名 ${stolenName} 已存在`)
    // A weak password is refused before anything is replaced.
    expectError(await register(server.client(), `y${hex()}`, 'weakpass', pendingEmail), 400, '密码中需要数字')

    expect(await em().count(User, {})).toBe(users)
    const [after] = await accountsWith(pendingEmail)
    expect({ userName: after.userName, hash: after.passwordHash, stamp: after.securityStamp }).toEqual({
      userName: pendingName,
      hash: pending.passwordHash,
      stamp: pending.securityStamp,
    })
    const ownerRow = await em().findOneOrFail(User, { id: owner.user.id })
    expect({ userName: ownerRow.userName, hash: ownerRow.passwordHash }).toEqual({ userName: owner.user.userName, hash: owner.user.passwordHash })
    expect((await owner.client.get('/api/account/profile')).status).toBe(200)
  })

  it('without e-mail confirmation, only the holder of the pending account’s password registers it again', async () => {
    await setPolicy({ activeOnRegister: false, emailConfirmationRequired: false })
    const email = `victim${hex()}@example.com`
    const victimName = `vic${hex()}`
    await register(server.client(), victimName, VICTIM_PASSWORD, email)
    const [before] = await accountsWith(email)

    // Nothing proves the address, so a stranger cannot replace the credentials an admin will approve.
    expectError(await register(server.client(), `att${hex()}`, ATTACKER_PASSWORD, email), 400, `邮箱地址 ${email} 已存在`)
    const [kept] = await accountsWith(email)
    expect({ userName: kept.userName, hash: kept.passwordHash }).toEqual({ userName: victimName, hash: before.passwordHash })

    // The owner may register again (here under a new name).
    const renamed = `vic${hex()}`
    const again = await register(server.client(), renamed, VICTIM_PASSWORD, email)
    expect(RegisterResponse.parse(again.body).data).toBe('AdminConfirmationRequired')
    const [after] = await accountsWith(email)
    expect(after.userName).toBe(renamed)
    expect(await accountsWith(email)).toHaveLength(1)
  })

  it('racing registrations of a pre-registered address: one account, one working link, its name and password from one registrant', async () => {
    const email = `race${hex()}@example.com`
    await register(server.client(), `att${hex()}`, ATTACKER_PASSWORD, email)
    const [preRegistration] = verifyMails(email)

    const contenders = Array.from({ length: 4 }, (_, i) => ({ userName: `r${i}${hex()}`, password: `Rac3r${i}Pass` }))
    const answers = await Promise.all(contenders.map((c) => register(server.client(), c.userName, c.password, email)))
    for (const res of answers) {
      expect(res.status, res.text).toBe(200)
      expect(RegisterResponse.parse(res.body).data).toBe('EmailConfirmationRequired')
    }
    expect(await accountsWith(email)).toHaveLength(1)

    expectError(await server.client().post('/api/account/verify', preRegistration.body), 401, '邮箱验证失败')
    const results: { userName: string; status: number }[] = []
    for (const mail of verifyMails(email).slice(1)) {
      const res = await server.client().post('/api/account/verify', mail.body)
      results.push({ userName: mail.userName, status: res.status })
      if (res.status !== 200) expectError(res, 401, '邮箱验证失败')
    }
    const confirmed = results.filter((r) => r.status === 200)
    expect(confirmed).toHaveLength(1)
    const winner = contenders.find((c) => c.userName === confirmed[0].userName)!
    expect((await accountsWith(email))[0]).toMatchObject({ userName: winner.userName, emailConfirmed: true })
    expect((await login(email, winner.password)).status).toBe(200)
    for (const other of contenders.filter((c) => c !== winner)) expectError(await login(email, other.password), 401, '用户名或密码错误')
    expectError(await login(email, ATTACKER_PASSWORD), 401, '用户名或密码错误')
  })

  it('racing first registrations of one address make one account and a 400, never a 500', async () => {
    await setPolicy({ activeOnRegister: true })
    const email = `fresh${hex()}@example.com`
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => register(server.client(), `f${i}${hex()}`, `Fr3sh${i}Pass`, email)))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    for (const res of answers.filter((r) => r.status !== 200)) {
      // Refused either by the check (a confirmed account exists) or by the unique index (the account was still pending).
      expect([`邮箱地址 ${email} 已存在`, '此账户已存在']).toContain(res.body.title)
      expect(res.status).toBe(400)
      expect(res.body.status).toBe(400)
    }
    expect(await accountsWith(email)).toHaveLength(1)
  })
})

describe('user names spelled like e-mail addresses', () => {
  it('a user name may not be another account’s e-mail address, on registration, profile update and admin edits', async () => {
    await setPolicy({ activeOnRegister: true })
    const victim = await createUser(server, { email: `v${hex(2)}@ex.io` })
    const taken = victim.user.email.toUpperCase()
    const users = await em().count(User, {})
    expectError(await register(server.client(), taken, ATTACKER_PASSWORD, `att${hex()}@example.com`), 400, `用户名 ${taken} 已存在`)
    expect(await em().count(User, {})).toBe(users)

    const attacker = await createUser(server)
    expectError(await attacker.client.put('/api/account/update', { userName: taken }), 400, `用户名 ${taken} 已存在`)
    // The admin edit answers 200 and saves nothing (docs/compatibility.md#group-admin).
    expect((await admin.put(`/api/admin/users/${attacker.user.id}`, { userName: taken })).status).toBe(200)
    expectError(await admin.post('/api/admin/users', [{ userName: taken, password: ATTACKER_PASSWORD, email: `bulk${hex()}@example.com` }]), 400, `用户名 ${taken} 已存在`)
    expect((await em().findOneOrFail(User, { id: attacker.user.id })).userName).toBe(attacker.user.userName)
    expect(await em().count(User, {})).toBe(users + 1)

    // One's own address is fine as a user name.
    const own = await createUser(server, { email: `o${hex(2)}@ex.io` })
    expect((await own.client.put('/api/account/update', { userName: own.user.email })).status).toBe(200)
  })

  it('signing in with an address finds the account of that e-mail before a user name spelled the same', async () => {
    await setPolicy({ activeOnRegister: true })
    // The squatter takes the name while nobody has that address (allowed), then the victim registers it.
    const address = `q${hex(2)}@ex.io`
    expect((await register(server.client(), address, ATTACKER_PASSWORD, `sq${hex()}@example.com`)).status).toBe(200)
    const victimName = `vic${hex()}`
    expect((await register(server.client(), victimName, VICTIM_PASSWORD, address)).status).toBe(200)

    const victim = server.client()
    expect((await victim.post('/api/account/login', { userName: address.toUpperCase(), password: VICTIM_PASSWORD })).status).toBe(200)
    expect((await victim.get('/api/account/profile')).body).toMatchObject({ userName: victimName, email: address })
    // The look-alike name no longer reaches the squatter's account (its own e-mail still does).
    expectError(await login(address, ATTACKER_PASSWORD), 401, '用户名或密码错误')
  })
})

// ---------------------------------------------------------------------------------------------

/** A captain and a member in one team, both registered through an accepted participation of `game`. */
async function playingTeam(game: Awaited<ReturnType<typeof createGame>>) {
  const [captain, member] = await Promise.all([createUser(server), createUser(server)])
  const team = await createTeam(server, captain.user, [member.user])
  const participation = await createParticipation(server, game, team, [captain.user, member.user], 'Accepted')
  await em().nativeUpdate(Team, { id: team.id }, { locked: true })
  return { captain, member, team, participation }
}

/** A user-hub socket watching `gameId`, once the server has put it in the team room. */
async function teamSocket(user: TestUser, gameId: number, participationId: number): Promise<Socket> {
  const socket = await connect(server, '/hub/user', { game: gameId, client: user.client })
  await joined(server, '/hub/user', socket, rooms.team(gameId, participationId))
  return socket
}

const registrationsOf = (userId: string, participationId: number) => em().count(Registration, { user: userId, participation: participationId })

describe('leaving or being kicked from a team ends playing for it', () => {
  // A practice game that has ended: the team's lock is lifted, yet its members still play.
  const endedPractice = () =>
    createGame(server, { start: new Date(Date.now() - 3 * HOUR), end: new Date(Date.now() - HOUR), wpddl: new Date(Date.now() - HOUR), practiceMode: true })

  it.each(['leave', 'kick'] as const)('after a %s the former member can no longer submit for the team nor hear its results', async (how) => {
    const game = await endedPractice()
    const challenge = await createChallenge(server, game, { flags: ['flag{left}'] })
    const { captain, member, team, participation } = await playingTeam(game)
    await createInstances(server, [participation], [challenge])
    const captainSocket = await teamSocket(captain, game.id, participation.id)
    const memberSocket = await teamSocket(member, game.id, participation.id)

    const res = how === 'leave' ? await member.client.post(`/api/team/${team.id}/leave`) : await captain.client.post(`/api/team/${team.id}/kick/${member.user.id}`)
    expect(res.status).toBe(200)
    expect(await registrationsOf(member.user.id, participation.id)).toBe(0)
    expect(await registrationsOf(captain.user.id, participation.id)).toBe(1)

    // Flags for the team: refused.
    expectError(await member.client.post(submitPath(game.id, challenge.id), { flag: 'flag{left}' }), 400, '您尚未参赛')

    // The team's pushes: the captain hears the result, the former member does not.
    await expect.poll(() => serverRooms(server, '/hub/user', memberSocket).has(rooms.team(game.id, participation.id))).toBe(false)
    const toCaptain = nextEvent<SubmissionResult>(captainSocket, 'ReceivedSubmissionResult')
    const quiet = noEvent(memberSocket, 'ReceivedSubmissionResult', 1000)
    const id = await submit(captain.client, game.id, challenge.id, 'flag{left}')
    expect(await toCaptain).toEqual({ id, challengeId: challenge.id, status: 'Accepted' })
    await quiet
    expect(memberSocket.connected).toBe(true)
    expect(serverRooms(server, '/hub/user', memberSocket).has(rooms.game(game.id))).toBe(true)
  })

  it('a member who left a pending team does not play for it once it is accepted', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { flags: ['flag{later}'] })
    const [captain, member] = await Promise.all([createUser(server), createUser(server)])
    const team = await createTeam(server, captain.user, [member.user])
    const participation = await createParticipation(server, game, team, [captain.user, member.user], 'Pending')
    const memberSocket = await connect(server, '/hub/user', { game: game.id, client: member.client })
    await joined(server, '/hub/user', memberSocket, rooms.game(game.id))

    expect((await member.client.post(`/api/team/${team.id}/leave`)).status).toBe(200)
    expect(await registrationsOf(member.user.id, participation.id)).toBe(0)
    expect((await admin.put(`/api/admin/participation/${participation.id}/Accepted`)).status).toBe(200)

    expectError(await member.client.post(submitPath(game.id, challenge.id), { flag: 'flag{later}' }), 400, '您尚未参赛')
    await new Promise((r) => setTimeout(r, 300))
    expect(serverRooms(server, '/hub/user', memberSocket).has(rooms.team(game.id, participation.id))).toBe(false)
  })
})

describe('kicking from a locked team', () => {
  it('the captain may remove a member who does not play in the locked game, never one who does', async () => {
    const game = await createGame(server)
    const { captain, member: player, team, participation } = await playingTeam(game)
    const bystander = await createUser(server)
    await em().getConnection().execute('insert into team_members (team_id, user_id) values (?, ?)', [team.id, bystander.user.id])
    // The bystander's registration for another game of the team, still pending, goes with the kick.
    const other = await createGame(server)
    const pending = await createParticipation(server, other, team, [bystander.user], 'Pending')

    expectError(await captain.client.post(`/api/team/${team.id}/kick/${player.user.id}`), 400, '队伍已锁定')
    expect(await registrationsOf(player.user.id, participation.id)).toBe(1)

    const res = await captain.client.post(`/api/team/${team.id}/kick/${bystander.user.id}`)
    expect(res.status).toBe(200)
    const members = (await reloadTeam(server, team.id))!.members.getItems().map((m) => m.id).sort()
    expect(members).toEqual([captain.user.id, player.user.id].sort())
    expect(await registrationsOf(bystander.user.id, pending.id)).toBe(0)
    expect((await reloadTeam(server, team.id))!.locked).toBe(true)

    // Still locked for everything else: the bystander cannot come back, the player cannot leave.
    expectError(await bystander.client.post('/api/team/accept', `${team.name}:${team.id}:${team.inviteToken}`), 400, `${team.name} 队伍已锁定`)
    expectError(await player.client.post(`/api/team/${team.id}/leave`), 400, '队伍已锁定')
  })
})

describe('membership changes under concurrency', () => {
  it.each(['kick', 'leave'] as const)('a %s racing the member’s own game registration leaves no registration of a non-member', async (how) => {
    const game = await createGame(server)
    const rounds = 12
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, async () => {
        const [captain, member] = await Promise.all([createUser(server), createUser(server)])
        const team = await createTeam(server, captain.user, [member.user])
        const change = how === 'kick' ? captain.client.post(`/api/team/${team.id}/kick/${member.user.id}`) : member.client.post(`/api/team/${team.id}/leave`)
        const [join, left] = await Promise.all([member.client.post(`/api/game/${game.id}`, { teamId: team.id, organization: null, inviteCode: null }), change])
        return { team, member, join, left }
      }),
    )
    for (const { team, member, join, left } of outcomes) {
      expect(left.status).toBe(200)
      expect([200, 400]).toContain(join.status)
      if (join.status === 400) expect(join.body).toEqual({ title: '您不是此队伍的队员', status: 400 })
      expect((await reloadTeam(server, team.id))!.members.getItems().map((m) => m.id)).not.toContain(member.user.id)
      expect(await em().count(Registration, { user: member.user.id })).toBe(0)
    }
  })

  it('joins, a kick and a leave at once, with auto-accept: the member limit holds and nothing fails', async () => {
    const game = await createGame(server, { acceptWithoutReview: true, teamMemberCountLimit: 2 })
    const [captain, ...members] = await Promise.all(Array.from({ length: 5 }, () => createUser(server)))
    const team = await createTeam(server, captain.user, members.map((m) => m.user))
    const body = { teamId: team.id, organization: null, inviteCode: null }
    const answers = await Promise.all([
      captain.client.post(`/api/game/${game.id}`, body),
      ...members.slice(0, 3).map((m) => m.client.post(`/api/game/${game.id}`, body)),
      captain.client.post(`/api/team/${team.id}/kick/${members[0].user.id}`),
      members[1].client.post(`/api/team/${team.id}/leave`),
    ])
    for (const res of answers) {
      expect(res.status, res.text).toBeLessThan(500)
      if (res.status !== 200) expect(res.body.status).toBe(400)
    }
    const regs = await em().find(Registration, { game: game.id })
    expect(regs.length).toBeLessThanOrEqual(2)
    const memberIds = new Set((await reloadTeam(server, team.id))!.members.getItems().map((m) => m.id))
    for (const r of regs) expect(memberIds.has(r.user.id)).toBe(true)
  })
})
