/**
 * API tokens on the realtime transport (docs/realtime.md#tokens): a real socket.io-client presents a
 * token in the handshake's `auth`, in an `Authorization: Bearer` header or as the `access_token`
 * query parameter (what browsers' SignalR clients send), and each hub admits exactly the scopes
 * and roles it should; a bad or revoked token is refused, never taken as anonymous.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { io, type Socket } from 'socket.io-client'
import { rooms } from '@flagwave/shared/events'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createGame } from '../support/factories/games.js'
import { closeAllSockets, connect, joined, type Namespace } from '../support/sockets.js'
import { connectHub, refusalOf, roomSize, stopAllHubs } from '../support/signalr.js'
import type { Game } from '../../server/src/entities/Game.js'

let server: TestServer
let game: Game
let monitor: TestUser
const opened: Socket[] = []

beforeAll(async () => {
  server = await startTestServer()
  game = await createGame(server)
  monitor = await createUser(server, { role: 'Monitor' })
})
afterEach(async () => {
  for (const s of opened.splice(0)) s.close()
  closeAllSockets()
  await stopAllHubs()
})
afterAll(async () => {
  await server?.close()
})

async function tokenFor(owner: TestUser, scopes: string[]): Promise<{ id: string; token: string }> {
  const res = await owner.client.post('/api/account/tokens', { name: 'socket', scopes })
  expect(res.status, res.text).toBe(200)
  return res.body
}

const refusals = new WeakMap<Socket, Promise<unknown>>()
const refusal = (socket: Socket) => refusals.get(socket)!
const endings = new WeakMap<Socket, Promise<string>>()
/** Why the socket was disconnected (listened for from the start). */
const ended = (socket: Socket) => endings.get(socket)!

/** A socket that presents `token` in the handshake's auth (socket.io's own way), or as `access_token`. */
function withToken(ns: Namespace, token: string, how: 'auth' | 'query'): Promise<Socket> {
  const socket = io(server.url + ns, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    ...(how === 'auth' ? { auth: { token: `Bearer ${token}` }, query: { game: String(game.id) } } : { query: { game: String(game.id), access_token: token } }),
  })
  opened.push(socket)
  // Listened for from the start: a refusal follows the connect at once.
  refusals.set(socket, new Promise((resolve) => socket.once('Refused', resolve)))
  endings.set(socket, new Promise((resolve) => socket.once('disconnect', resolve)))
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

describe('tokens on the hubs', () => {
  it('admits a monitor-scope token on the monitor hub by handshake auth, header and access_token', async () => {
    const { token } = await tokenFor(monitor, ['monitor'])
    const byAuth = await withToken('/hub/monitor', token, 'auth')
    await joined(server, '/hub/monitor', byAuth, rooms.game(game.id))
    const byQuery = await withToken('/hub/monitor', token, 'query')
    await joined(server, '/hub/monitor', byQuery, rooms.game(game.id))
    const byHeader = await connect(server, '/hub/monitor', { game: game.id, headers: { authorization: `Bearer ${token}` } })
    await joined(server, '/hub/monitor', byHeader, rooms.game(game.id))
  })

  it('refuses a token without the hub’s scope, or whose owner lacks the role', async () => {
    const { token: readOnly } = await tokenFor(monitor, ['read'])
    const refused = await withToken('/hub/monitor', readOnly, 'auth')
    expect(await refusal(refused)).toEqual({ reason: 'role' })
    expect(await ended(refused)).toBe('io server disconnect')
    // The same token is fine where `read` is enough.
    const reader = await withToken('/hub/user', readOnly, 'query')
    await joined(server, '/hub/user', reader, rooms.user(monitor.user.id))
    const { token: monitorToken } = await tokenFor(monitor, ['monitor'])
    const admin = await withToken('/hub/admin', monitorToken, 'auth')
    expect(await ended(admin)).toBe('io server disconnect')
  })

  it('refuses a bad token instead of treating the socket as anonymous', async () => {
    const socket = await withToken('/hub/user', 'fw_not-a-token', 'query')
    expect(await refusal(socket)).toEqual({ reason: 'role' })
    expect(await ended(socket)).toBe('io server disconnect')
  })

  it('drops the sockets of a revoked token at once and refuses it on reconnect', async () => {
    const player = await createUser(server)
    const { id, token } = await tokenFor(player, ['read'])
    const socket = await withToken('/hub/user', token, 'auth')
    await joined(server, '/hub/user', socket, rooms.user(player.user.id))
    const gone = ended(socket)
    expect((await player.client.delete(`/api/account/tokens/${id}`)).status).toBe(200)
    expect(await gone).toBe('io server disconnect')
    const again = await withToken('/hub/user', token, 'auth')
    expect(await refusal(again)).toEqual({ reason: 'role' })
  })

  it('lets a GZ::CTF admin token onto the monitor hub, as GZ::CTF 1.5 does', async () => {
    const admin = await server.admin()
    const created = await admin.post('/api/tokens', { name: 'monitor bot' })
    const socket = await withToken('/hub/monitor', created.body.token, 'auth')
    await joined(server, '/hub/monitor', socket, rooms.game(game.id))
  })

  it('admits a token on the SignalR hubs as browsers send it (access_token), by the same scopes', async () => {
    const { token: monitorToken } = await tokenFor(monitor, ['monitor'])
    const hub = await connectHub(server, 'monitor', { game: game.id, accessToken: monitorToken })
    await roomSize(server, 'monitor', rooms.game(game.id), 1)
    await hub.stop()
    const { token: readToken } = await tokenFor(monitor, ['read'])
    expect(await refusalOf(server, 'monitor', { game: game.id, accessToken: readToken })).toMatch(/Refused/)
    expect(await refusalOf(server, 'monitor', { game: game.id, accessToken: 'fw_not-a-token' })).toMatch(/Refused/)
  })
})
