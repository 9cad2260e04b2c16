/**
 * The realtime backbone (docs/compatibility.md#realtime-hubs; docs/realtime.md#who-may-join-what): hub access rules checked on connect, room
 * isolation between games, and dropping a user's sockets.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { rooms } from '@flagwave/shared/events'
import { GameNotice, GameEvent } from '@flagwave/shared/schemas/games'
import { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { Game } from '../../server/src/entities/Game.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { closeAllSockets, connect, disconnected, joined, nextEvent, noEvent, serverRooms } from '../support/sockets.js'

let server: TestServer
let started: number
let otherStarted: number
let notStarted: number

const HOUR = 3600_000

async function insertGame(title: string, start: Date, end: Date): Promise<number> {
  const em = server.services.orm.em.fork()
  const game = em.create(Game, { title, publicKey: 'test-public-key', privateKey: 'test-private-key', start, end, wpddl: end })
  await em.flush()
  return game.id
}

beforeAll(async () => {
  server = await startTestServer()
  const now = Date.now()
  started = await insertGame('Started', new Date(now - HOUR), new Date(now + HOUR))
  otherStarted = await insertGame('Also started', new Date(now - HOUR), new Date(now + HOUR))
  notStarted = await insertGame('Upcoming', new Date(now + 24 * HOUR), new Date(now + 48 * HOUR))
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

const notice = (id: number): GameNotice => ({ id, type: 'Normal', content: `notice ${id}`, time: '2026-01-01T00:00:00+00:00', values: [`notice ${id}`] })

describe('/hub/user', () => {
  it('delivers a game notice to the sockets watching that game and to no other game', async () => {
    const { client } = await createUser(server)
    const watching = await connect(server, '/hub/user', { game: started, client })
    const elsewhere = await connect(server, '/hub/user', { game: otherStarted, client })
    await joined(server, '/hub/user', watching, rooms.game(started))
    await joined(server, '/hub/user', elsewhere, rooms.game(otherStarted))

    const received = nextEvent<GameNotice>(watching, 'ReceivedGameNotice')
    const silent = noEvent(elsewhere, 'ReceivedGameNotice', 400)
    server.services.realtime.publish('user', rooms.game(started), 'ReceivedGameNotice', notice(1))
    const payload = await received
    expect(GameNotice.parse(payload)).toEqual(notice(1))
    await silent
  })

  it('lets anonymous sockets watch a started game but not one that has not started', async () => {
    const anonymous = await connect(server, '/hub/user', { game: started })
    await joined(server, '/hub/user', anonymous, rooms.game(started))
    const received = nextEvent<GameNotice>(anonymous, 'ReceivedGameNotice')
    server.services.realtime.publish('user', rooms.game(started), 'ReceivedGameNotice', notice(2))
    expect(await received).toEqual(notice(2))

    const early = await connect(server, '/hub/user', { game: notStarted })
    expect(await disconnected(early)).toBe('io server disconnect')
  })

  it('lets only monitors and admins watch a game before it starts (REST serves nobody its notices or board yet)', async () => {
    const { client } = await createUser(server)
    const early = await connect(server, '/hub/user', { game: notStarted, client })
    expect(await disconnected(early)).toBe('io server disconnect')
    const monitor = await createUser(server, { role: 'Monitor' })
    const socket = await connect(server, '/hub/user', { game: notStarted, client: monitor.client })
    await joined(server, '/hub/user', socket, rooms.game(notStarted))
  })

  it('refuses an unknown game and a malformed game id', async () => {
    const { client } = await createUser(server)
    const unknown = await connect(server, '/hub/user', { game: 999_999, client })
    expect(await disconnected(unknown)).toBe('io server disconnect')
    // A malformed id is not a game: the socket stays, but joins no game room.
    const malformed = await connect(server, '/hub/user', { game: 'abc', client })
    await new Promise((r) => setTimeout(r, 200))
    expect([...serverRooms(server, '/hub/user', malformed)].some((r) => r.startsWith('Game_'))).toBe(false)
  })

  it('refuses a banned user', async () => {
    const { client } = await createUser(server, { role: 'Banned' })
    const socket = await connect(server, '/hub/user', { game: started, client })
    expect(await disconnected(socket)).toBe('io server disconnect')
  })

  it('ignores a session cookie that is no longer valid (treated as anonymous)', async () => {
    const { client } = await createUser(server)
    const cookie = client.cookieHeader
    await client.post('/api/account/logout')
    // Anonymous may still watch a started game, but not an upcoming one.
    const upcoming = await connect(server, '/hub/user', { game: notStarted, cookie })
    expect(await disconnected(upcoming)).toBe('io server disconnect')
  })
})

describe('/hub/monitor', () => {
  it('refuses a User and accepts a Monitor, which receives the game events', async () => {
    const user = await createUser(server)
    const refused = await connect(server, '/hub/monitor', { game: started, client: user.client })
    expect(await disconnected(refused)).toBe('io server disconnect')

    const anonymous = await connect(server, '/hub/monitor', { game: started })
    expect(await disconnected(anonymous)).toBe('io server disconnect')

    const monitor = await createUser(server, { role: 'Monitor' })
    const socket = await connect(server, '/hub/monitor', { game: started, client: monitor.client })
    await joined(server, '/hub/monitor', socket, rooms.game(started))
    const event: GameEvent = { type: 'FlagSubmit', content: 'flag{x} 答案错误', time: '2026-01-01T00:00:00+00:00', user: 'u', team: 't', values: ['flag{x} 答案错误'] }
    const received = nextEvent<GameEvent>(socket, 'ReceivedGameEvent')
    server.services.realtime.publish('monitor', rooms.game(started), 'ReceivedGameEvent', event)
    expect(GameEvent.parse(await received)).toEqual(event)
  })

  it('refuses a Monitor without a game or with an unknown game', async () => {
    const monitor = await createUser(server, { role: 'Monitor' })
    const noGame = await connect(server, '/hub/monitor', { client: monitor.client })
    expect(await disconnected(noGame)).toBe('io server disconnect')
    const unknown = await connect(server, '/hub/monitor', { game: 999_999, client: monitor.client })
    expect(await disconnected(unknown)).toBe('io server disconnect')
  })

  it('does not hand user-hub notices to the monitor hub', async () => {
    const monitor = await createUser(server, { role: 'Monitor' })
    const socket = await connect(server, '/hub/monitor', { game: started, client: monitor.client })
    await joined(server, '/hub/monitor', socket, rooms.game(started))
    const silent = noEvent(socket, 'ReceivedGameNotice', 300)
    server.services.realtime.publish('user', rooms.game(started), 'ReceivedGameNotice', notice(3))
    await silent
  })
})

describe('/hub/admin', () => {
  it('refuses a Monitor and accepts the Admin, which receives audit log entries', async () => {
    const monitor = await createUser(server, { role: 'Monitor' })
    const refused = await connect(server, '/hub/admin', { client: monitor.client })
    expect(await disconnected(refused)).toBe('io server disconnect')

    const admin = await server.admin()
    const socket = await connect(server, '/hub/admin', { client: admin })
    await joined(server, '/hub/admin', socket, rooms.admins)
    const received = nextEvent<LogMessageModel>(socket, 'ReceivedLog')
    await server.services.audit.write({ message: 'backbone test entry', userName: 'Admin', ip: '127.0.0.1', status: 'Success' })
    const log = LogMessageModel.parse(await received)
    expect(log).toMatchObject({ name: 'Admin', msg: 'backbone test entry', status: 'Success', level: 'Information', ip: '127.0.0.1' })
  })
})

describe('disconnectUser', () => {
  it("drops every socket of that user, on every hub, and no one else's", async () => {
    const target = await createUser(server, { role: 'Monitor' })
    const bystander = await createUser(server)
    const userHub = await connect(server, '/hub/user', { game: started, client: target.client })
    const monitorHub = await connect(server, '/hub/monitor', { game: started, client: target.client })
    const other = await connect(server, '/hub/user', { game: started, client: bystander.client })
    await joined(server, '/hub/user', userHub, rooms.user(target.user.id))
    await joined(server, '/hub/monitor', monitorHub, rooms.user(target.user.id))
    await joined(server, '/hub/user', other, rooms.user(bystander.user.id))

    const gone = Promise.all([disconnected(userHub), disconnected(monitorHub)])
    server.services.realtime.disconnectUser(target.user.id)
    expect(await gone).toEqual(['io server disconnect', 'io server disconnect'])
    await new Promise((r) => setTimeout(r, 200))
    expect(other.connected).toBe(true)
  })
})
