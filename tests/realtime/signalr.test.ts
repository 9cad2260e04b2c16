/**
 * The SignalR hubs (docs/realtime.md#signalr-hubs) with the real `@microsoft/signalr` client, as
 * clients written for GZ::CTF use them: negotiation, the WebSocket, the JSON hub protocol, each
 * hub with right and wrong callers, every GZ::CTF event fed by the same sink as Socket.IO (one
 * push reaches a socket.io-client and a SignalR connection alike), refusals and re-checks, the
 * compat time form, reconnection after a server-side close, the protocol's edges over a raw
 * WebSocket, and, with Redis, a push from another node.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { HubConnectionState } from '@microsoft/signalr'
import { rooms } from '@flagwave/shared/events'
import { GameEvent, GameNotice } from '@flagwave/shared/schemas/games'
import { Submission } from '@flagwave/shared/schemas/play'
import { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { WIRE_DATE_PATTERN } from '@flagwave/shared/format'
import type { Game } from '../../server/src/entities/Game.js'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, startNode, submit } from '../support/factories/play.js'
import { closeAllSockets, connect, joined, nextEvent } from '../support/sockets.js'
import { closedWithin, connectHub, refusalOf, roomCount, roomSize, stopAllHubs } from '../support/signalr.js'

const HOUR = 3600_000
const RS = '\x1e'

let server: TestServer
let admin: ApiClient
let monitor: TestUser
let user: TestUser
let banned: TestUser
let started: Game

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
  monitor = await createUser(server, { role: 'Monitor' })
  user = await createUser(server)
  banned = await createUser(server, { role: 'Banned' })
  started = await createGame(server)
})
afterEach(async () => {
  closeAllSockets()
  await stopAllHubs()
})
afterAll(async () => {
  await stopAllHubs()
  await server?.close()
})

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('negotiation', () => {
  it('answers version 1 with a connection id and token and the WebSockets transport, version 0 without a token', async () => {
    const v1 = await fetch(`${server.url}/hub/user/negotiate?negotiateVersion=1&game=${started.id}`, { method: 'POST' })
    expect(v1.status).toBe(200)
    const body = (await v1.json()) as Record<string, unknown>
    expect(body).toEqual({
      negotiateVersion: 1,
      connectionId: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/),
      connectionToken: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/),
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
    })
    expect(body.connectionToken).not.toBe(body.connectionId)

    const v0 = await fetch(`${server.url}/hub/admin/negotiate`, { method: 'POST' })
    const body0 = (await v0.json()) as Record<string, unknown>
    expect(body0).toEqual({ negotiateVersion: 0, connectionId: expect.any(String), availableTransports: [expect.objectContaining({ transport: 'WebSockets' })] })
  })

  it('refuses a cross-site negotiation in the contract error shape; other paths and methods stay 404', async () => {
    const res = await fetch(`${server.url}/hub/user/negotiate?negotiateVersion=1`, { method: 'POST', headers: { Origin: 'https://evil.example' } })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ title: '跨站请求已被拒绝', status: 403 })
    expect((await fetch(`${server.url}/hub/other/negotiate`, { method: 'POST' })).status).toBe(404)
    expect((await fetch(`${server.url}/hub/user/negotiate`)).status).toBe(404)
  })
})

describe('/hub/user', () => {
  it('an anonymous watcher of a started game receives ReceivedGameNotice, the same push a socket.io-client gets', async () => {
    const hub = await connectHub(server, 'user', { game: started.id })
    const socket = await connect(server, '/hub/user', { game: started.id })
    await joined(server, '/hub/user', socket, rooms.game(started.id))
    await roomSize(server, 'user', rooms.game(started.id), 2)

    const viaHub = hub.next('ReceivedGameNotice')
    const viaSocket = nextEvent(socket, 'ReceivedGameNotice')
    const res = await admin.post(`/api/edit/games/${started.id}/notices`, { content: 'Hello SignalR' })
    expect(res.status).toBe(200)
    const notice = GameNotice.parse(await viaHub)
    expect(notice).toEqual(res.body)
    expect(notice).toMatchObject({ type: 'Normal', content: 'Hello SignalR' })
    expect(notice.time).toMatch(WIRE_DATE_PATTERN)
    expect(await viaSocket).toEqual(await viaHub)
    expect(hub.events.filter((e) => e.target === 'ReceivedGameNotice')).toHaveLength(1)
  })

  it('with compat=1.8 the notice time is Unix milliseconds; without it, or for older versions, ISO', async () => {
    const game = await createGame(server)
    const newer = await connectHub(server, 'user', { game: game.id, compat: '1.8' })
    const older = await connectHub(server, 'user', { game: game.id, compat: '1.6' })
    await roomSize(server, 'user', rooms.game(game.id), 2)
    const ms = newer.next('ReceivedGameNotice')
    const iso = older.next('ReceivedGameNotice')
    const res = await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Times' })
    const pushed = await ms
    expect(pushed).toEqual({ ...res.body, time: Date.parse(res.body.time) })
    expect(typeof pushed.time).toBe('number')
    expect(await iso).toEqual(res.body)
  })

  it('a player of an accepted participation also hears its own team room (ReceivedSubmissionResult)', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { flags: ['flag{hub}'] })
    const player = await createPlayer(server, game)
    await createInstances(server, [player.participation], [challenge])
    const hub = await connectHub(server, 'user', { game: game.id, client: player.client })
    await roomSize(server, 'user', rooms.team(game.id, player.participation.id), 1)
    const result = hub.next('ReceivedSubmissionResult')
    const id = await submit(player.client, game.id, challenge.id, 'flag{hub}')
    expect(await result).toEqual({ id, challengeId: challenge.id, status: 'Accepted' })
  })

  it('follows room moves: a participation accepted while connected puts the connection into the team room', async () => {
    const game = await createGame(server)
    const player = await createPlayer(server, game, { status: 'Pending' })
    const hub = await connectHub(server, 'user', { game: game.id, client: player.client })
    await roomSize(server, 'user', rooms.game(game.id), 1)
    expect(roomCount(server, 'user', rooms.team(game.id, player.participation.id))).toBe(0)
    const update = hub.next('ReceivedParticipationUpdate')
    expect((await admin.put(`/api/admin/participation/${player.participation.id}/Accepted`)).status).toBe(200)
    expect(await update).toEqual({ gameId: game.id, participationId: player.participation.id, status: 'Accepted' })
    // The move happened before the update was published (docs/realtime.md#room-moves).
    expect(roomCount(server, 'user', rooms.team(game.id, player.participation.id))).toBe(1)
  })

  it('refuses a banned caller and, before the start, a user; neither reconnects', async () => {
    const upcoming = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
    expect(await refusalOf(server, 'user', { game: started.id, client: banned.client })).toMatch(/Refused: banned/)
    expect(await refusalOf(server, 'user', { game: 999_999 })).toMatch(/Refused: game/)
    // withAutomaticReconnect does not retry a refusal.
    let retried = false
    const early = await connectHub(server, 'user', { game: upcoming.id, client: user.client, reconnect: [0, 0] }).catch((err: Error) => err)
    if (!(early instanceof Error)) {
      early.connection.onreconnecting(() => (retried = true))
      expect((await closedWithin(early))?.message).toMatch(/Refused: game/)
      await pause(200)
      expect(early.connection.state).toBe(HubConnectionState.Disconnected)
    } else expect(early.message).toMatch(/Refused: game/)
    expect(retried).toBe(false)
    // A monitor may watch it before the start.
    const staff = await connectHub(server, 'user', { game: upcoming.id, client: monitor.client })
    await roomSize(server, 'user', rooms.game(upcoming.id), 1)
    expect(staff.connection.state).toBe(HubConnectionState.Connected)
  })

  it('a game whose start moves into the future refuses its anonymous watchers (re-check through the same rooms)', async () => {
    const game = await createGame(server)
    const hub = await connectHub(server, 'user', { game: game.id })
    await roomSize(server, 'user', rooms.game(game.id), 1)
    const current = await admin.get(`/api/edit/games/${game.id}`)
    const later = (h: number) => new Date(Date.now() + h * HOUR).toISOString()
    const res = await admin.put(`/api/edit/games/${game.id}`, { ...current.body, start: later(1), end: later(2), wpddl: later(3) })
    expect(res.status).toBe(200)
    expect((await closedWithin(hub))?.message).toMatch(/Refused: game/)
  })
})

describe('/hub/monitor', () => {
  it('a monitor receives ReceivedGameEvent and ReceivedSubmissions of a judged submission', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { title: 'Watched', flags: ['flag{m}'] })
    const player = await createPlayer(server, game)
    await createInstances(server, [player.participation], [challenge])
    const hub = await connectHub(server, 'monitor', { game: game.id, client: monitor.client })
    await roomSize(server, 'monitor', rooms.game(game.id), 1)
    const event = hub.next('ReceivedGameEvent')
    const submission = hub.next('ReceivedSubmissions')
    await submit(player.client, game.id, challenge.id, 'flag{wrong}')
    expect(GameEvent.parse(await event)).toMatchObject({ type: 'FlagSubmit', team: player.team.name })
    expect(Submission.parse(await submission)).toMatchObject({ answer: 'flag{wrong}', status: 'WrongAnswer', team: player.team.name, challenge: 'Watched' })
  })

  it('refuses anonymous callers, users and a missing game', async () => {
    expect(await refusalOf(server, 'monitor', { game: started.id })).toMatch(/Refused: role/)
    expect(await refusalOf(server, 'monitor', { game: started.id, client: user.client })).toMatch(/Refused: role/)
    expect(await refusalOf(server, 'monitor', { game: started.id, client: banned.client })).toMatch(/Refused: role/)
    expect(await refusalOf(server, 'monitor', { client: monitor.client })).toMatch(/Refused: role/)
    expect(await refusalOf(server, 'monitor', { game: 999_999, client: monitor.client })).toMatch(/Refused: game/)
  })
})

describe('/hub/admin', () => {
  it('an admin receives ReceivedLog; monitors and anonymous callers are refused', async () => {
    const before = roomCount(server, 'admin', rooms.admins)
    const hub = await connectHub(server, 'admin', { client: admin })
    await roomSize(server, 'admin', rooms.admins, before + 1)
    const log = hub.next('ReceivedLog', (p: LogMessageModel) => p.msg === '全局设置已更新')
    expect((await admin.put('/api/admin/config', { globalConfig: { title: 'Hub' } })).status).toBe(200)
    expect(LogMessageModel.parse(await log)).toMatchObject({ name: 'Admin', level: 'Information', status: 'Success' })

    expect(await refusalOf(server, 'admin', { client: monitor.client })).toMatch(/Refused: role/)
    expect(await refusalOf(server, 'admin', { client: user.client })).toMatch(/Refused: role/)
    expect(await refusalOf(server, 'admin')).toMatch(/Refused: role/)
  })

  it('reconnects (withAutomaticReconnect) after the server drops the user, and hears pushes again', async () => {
    const hub = await connectHub(server, 'admin', { client: admin, reconnect: [0, 100, 500] })
    const adminId = (await admin.get('/api/account/profile')).body.userId as string
    await roomSize(server, 'admin', rooms.user(adminId), 1)
    const reconnecting = new Promise<void>((resolve) => hub.connection.onreconnecting(() => resolve()))
    const reconnected = new Promise<void>((resolve) => hub.connection.onreconnected(() => resolve()))
    server.services.realtime.disconnectUser(adminId)
    await reconnecting
    await reconnected
    await roomSize(server, 'admin', rooms.user(adminId), 1)
    const log = hub.next('ReceivedLog', (p: LogMessageModel) => p.msg === '全局设置已更新')
    expect((await admin.put('/api/admin/config', { globalConfig: { title: 'Again' } })).status).toBe(200)
    await log
    expect(hub.connection.state).toBe(HubConnectionState.Connected)
  })
})

describe('cross-site callers', () => {
  it('a WebSocket from another site is refused before the handshake, with or without a cookie', async () => {
    for (const cookie of [admin.cookieHeader, '']) {
      await expect(connectHub(server, 'admin', { cookie, headers: { Origin: 'https://evil.example' } })).rejects.toThrow()
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${server.url.replace('http', 'ws')}/hub/admin`, { headers: { Origin: 'https://evil.example', Cookie: cookie } })
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
        ws.on('open', () => resolve(101))
      })
      expect(status).toBe(403)
    }
    // The same-site page is admitted (PUBLIC_URL unset: Origin = Host).
    const host = new URL(server.url).host
    const ok = await connectHub(server, 'admin', { client: admin, headers: { Origin: `http://${host}` } })
    expect(ok.connection.state).toBe(HubConnectionState.Connected)
  })
})

/** A raw WebSocket on a hub, for the protocol's edges; resolves once open. */
async function rawHub(path: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}${path}`, { headers })
  const received: string[] = []
  let buffer = ''
  ws.on('message', (data) => {
    buffer += data.toString()
    let end: number
    while ((end = buffer.indexOf(RS)) >= 0) {
      received.push(buffer.slice(0, end))
      buffer = buffer.slice(end + 1)
    }
  })
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const until = async (n: number) => {
    const deadline = Date.now() + 5000
    while (received.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${received.length} records: ${JSON.stringify(received)}`)
      await pause(10)
    }
    return received
  }
  return { ws, received, closed, until }
}

describe('the protocol over a raw WebSocket', () => {
  it('handshake, pings in both directions, a call the hub does not take, close', async () => {
    const hub = await rawHub(`/hub/user?id=abcDEF_123-x&game=${started.id}`)
    hub.ws.send(`{"protocol":"json","version":1}${RS}`)
    expect((await hub.until(1))[0]).toBe('{}')
    // A ping and a call with an id in one frame: the call is answered with a completion error.
    hub.ws.send(`{"type":6}${RS}{"type":1,"invocationId":"7","target":"SendMessage","arguments":[]}${RS}{"type":1,"target":"Fire","arguments":[]}${RS}`)
    const completion = JSON.parse((await hub.until(2))[1]!)
    expect(completion).toMatchObject({ type: 3, invocationId: '7', error: expect.stringContaining('SendMessage') })
    hub.ws.send(`{"type":7}${RS}`)
    expect(await hub.closed).toBe(1000)
  })

  it('refuses another protocol, a malformed id, a message larger than 32 KiB and invalid JSON', async () => {
    const msgpack = await rawHub('/hub/user')
    msgpack.ws.send(`{"protocol":"messagepack","version":1}${RS}`)
    expect(JSON.parse((await msgpack.until(1))[0]!)).toEqual({ error: expect.stringContaining('messagepack') })
    await msgpack.closed

    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/hub/user?id=${'x'.repeat(200)}`)
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.on('open', () => resolve(101))
    })
    expect(status).toBe(400)

    const big = await rawHub('/hub/user')
    big.ws.send(`{"protocol":"json","version":1}${RS}`)
    await big.until(1)
    // One frame over the limit is cut off by the WebSocket layer (1009); a record spread over
    // frames that never ends is cut off by the hub.
    big.ws.send('x'.repeat(40 * 1024))
    expect(await big.closed).toBe(1009)
    const endless = await rawHub('/hub/user')
    endless.ws.send(`{"protocol":"json","version":1}${RS}`)
    await endless.until(1)
    endless.ws.send('x'.repeat(20 * 1024))
    endless.ws.send('x'.repeat(20 * 1024))
    expect(JSON.parse((await endless.until(2))[1]!)).toMatchObject({ type: 7, error: 'Message too large.' })
    await endless.closed

    // A connection the hub closes leaves its rooms at once, not when the client finishes the WebSocket close.
    const game = await createGame(server)
    const garbage = await rawHub(`/hub/user?game=${game.id}`)
    garbage.ws.send(`{"protocol":"json","version":1}${RS}`)
    await roomSize(server, 'user', rooms.game(game.id), 1)
    garbage.ws.pause()
    garbage.ws.send(`not json${RS}`)
    await expect.poll(() => roomCount(server, 'user', rooms.game(game.id))).toBe(0)
    garbage.ws.resume()
    const records = await garbage.until(2)
    expect(JSON.parse(records[1]!)).toMatchObject({ type: 7, error: expect.stringContaining('Invalid JSON') })
    await garbage.closed
  })

  it('pings an idle client, closes one silent for 30 s and one that never shakes hands within 15 s', { timeout: 60_000 }, async () => {
    const pinging = await rawHub(`/hub/user?game=${started.id}`)
    const silent = await rawHub(`/hub/user?game=${started.id}`)
    const mute = await rawHub('/hub/user')
    for (const hub of [pinging, silent]) hub.ws.send(`{"protocol":"json","version":1}${RS}`)
    const keepAlive = setInterval(() => pinging.ws.send(`{"type":6}${RS}`), 5000)
    try {
      const openedAt = Date.now()
      const muteClosed = await mute.closed
      expect(Date.now() - openedAt).toBeGreaterThanOrEqual(14_000)
      expect(muteClosed).toBe(1000)
      expect(JSON.parse(mute.received[0]!)).toEqual({ error: expect.stringContaining('Handshake') })
      await silent.closed
      expect(Date.now() - openedAt).toBeGreaterThanOrEqual(29_000)
      const last = JSON.parse(silent.received.at(-1)!)
      expect(last).toMatchObject({ type: 7, allowReconnect: true, error: expect.stringContaining('timeout') })
      // The other one heard the server's pings and is still open.
      expect(pinging.received.slice(1).map((r) => JSON.parse(r))).toContainEqual({ type: 6 })
      expect(pinging.ws.readyState).toBe(WebSocket.OPEN)
    } finally {
      clearInterval(keepAlive)
      pinging.ws.close()
    }
  })

  it('a refused caller gets a close message that forbids reconnecting', async () => {
    const hub = await rawHub('/hub/admin')
    hub.ws.send(`{"protocol":"json","version":1}${RS}`)
    const records = await hub.until(2)
    expect(JSON.parse(records[1]!)).toEqual({ type: 7, error: 'Refused: role' })
    await hub.closed
  })
})

describe.skipIf(!process.env.REDIS_URL)('several nodes', () => {
  it('a notice posted on this node reaches a SignalR connection on another node', async () => {
    const node = await startNode(server.databaseUrl, { REDIS_PREFIX: server.services.config.REDIS_PREFIX, CHECKER_CONCURRENCY: '0' })
    try {
      const hub = await connectHub({ url: node.url }, 'user', { game: started.id })
      let n = 0
      const notice = hub.next('ReceivedGameNotice', (p: GameNotice) => p.content.startsWith('from A'), 15_000)
      // The other node joins the room just after the handshake: post until one arrives.
      let done = false
      void notice.then(() => (done = true)).catch(() => undefined)
      while (!done && n < 20) {
        expect((await admin.post(`/api/edit/games/${started.id}/notices`, { content: `from A #${++n}` })).status).toBe(200)
        await pause(300)
      }
      expect((await notice).content).toMatch(/^from A #\d+$/)
      await hub.stop()
    } finally {
      await node.close()
    }
  })
})
