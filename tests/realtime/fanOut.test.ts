/**
 * The direct fan-out of server/src/realtime/fanOut.ts (docs/realtime.md#fan-out) on a bare Socket.IO
 * server: a broadcast reaches WebSocket clients without engine.io's per-packet path, long-polling
 * clients through it, every client in publish order, and frames written together leave each socket
 * in one write. If an upgrade of socket.io-adapter, engine.io or ws changes what this relies on,
 * these fail rather than the fan-out silently falling back.
 */
import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRequire } from 'node:module'
import type { attachRealtime } from '../../server/src/realtime/server.js'
import { io as connect, type Socket as ClientSocket } from 'socket.io-client'
import { coalesced, directFanOut } from '../../server/src/realtime/fanOut.js'
import { recordServerWrites, type SocketWrite } from '../support/sockets.js'

type AdapterClass = Parameters<typeof directFanOut>[0]
/** Socket.IO as the server workspace resolves it (a dependency of the server, not of the tests). */
type Server = ReturnType<typeof attachRealtime>
type Socket = ReturnType<Server['of']>['sockets'] extends Map<string, infer S> ? S : never
const { Server: SocketIoServer } = createRequire(new URL('../../server/package.json', import.meta.url))('socket.io') as {
  Server: new (http: HttpServer, options: { transports: ('polling' | 'websocket')[] }) => Server
}

let http: HttpServer
let io: Server
let url: string

beforeAll(async () => {
  http = createServer()
  io = new SocketIoServer(http, { transports: ['polling', 'websocket'] })
  io.adapter(directFanOut(io.adapter() as unknown as AdapterClass) as unknown as NonNullable<Parameters<Server['adapter']>[0]>)
  io.on('connection', (socket) => void socket.join('room'))
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => io.close(() => resolve()))
})

/** A client on one transport that records every `n` event it receives. */
async function client(transport: 'websocket' | 'polling'): Promise<{ socket: ClientSocket; seen: number[] }> {
  const socket = connect(url, { transports: [transport], upgrade: false, reconnection: false, forceNew: true })
  const seen: number[] = []
  socket.on('n', (n: number) => seen.push(n))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('connect_error', reject)
  })
  return { socket, seen }
}

/** The system calls that write to a client's WebSocket from now on: `write` or `writev`. */
const recordWrites = (clientSocket: ClientSocket): SocketWrite[] => recordServerWrites(engineCount(clientSocket).socket)

/** The server side of a client, and how many packets engine.io created for it from now on. */
function engineCount(clientSocket: ClientSocket): { socket: Socket; created: () => number } {
  const socket = [...io.of('/').sockets.values()].find((s) => s.id === clientSocket.id)!
  let created = 0
  socket.conn.on('packetCreate', (packet: { type: string }) => {
    if (packet.type === 'message') created += 1
  })
  return { socket, created: () => created }
}

const until = async (done: () => boolean) => {
  const deadline = Date.now() + 5000
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
  expect(done()).toBe(true)
}

describe('direct fan-out', () => {
  it('writes broadcasts straight to WebSockets, through engine.io to long polling, in publish order to every client', async () => {
    const sockets = await Promise.all([client('websocket'), client('websocket'), client('polling')])
    const [ws1, ws2, polling] = sockets.map((c) => engineCount(c.socket))
    for (let n = 1; n <= 20; n++) io.to('room').emit('n', n)
    const expected = Array.from({ length: 20 }, (_, i) => i + 1)
    await until(() => sockets.every((c) => c.seen.length === 20))
    for (const c of sockets) expect(c.seen).toEqual(expected)
    expect([ws1!.created(), ws2!.created()]).toEqual([0, 0])
    expect(polling!.created()).toBe(20)
    for (const c of sockets) c.socket.close()
  })

  it('keeps a socket’s order when a packet of its own waits in engine.io', async () => {
    const c = await client('websocket')
    const { socket, created } = engineCount(c.socket)
    // Two packets sent to this socket alone: the second waits in engine.io behind the first, still
    // being written, so the broadcast after them must wait its turn there rather than overtake it.
    socket.emit('n', 1)
    socket.emit('n', 2)
    io.to('room').emit('n', 3)
    await until(() => c.seen.length === 3)
    expect(c.seen).toEqual([1, 2, 3])
    expect(created()).toBe(3)
    // Once engine.io has written its queue, broadcasts go straight to the WebSocket again.
    await new Promise((r) => setTimeout(r, 20))
    io.to('room').emit('n', 4)
    await until(() => c.seen.length === 4)
    expect(created()).toBe(3)
    c.socket.close()
  })

  it('reaches each socket once when a broadcast names several rooms, and never one left out', async () => {
    const [c1, c2, c3] = await Promise.all([client('websocket'), client('websocket'), client('websocket')])
    await engineCount(c1!.socket).socket.join('a')
    await engineCount(c2!.socket).socket.join(['a', 'b'])
    io.to('a').to('b').emit('n', 1)
    io.to('room').except('b').emit('n', 2)
    io.to('room').emit('n', 3)
    await until(() => c1!.seen.length === 3 && c2!.seen.length === 2 && c3!.seen.length === 2)
    expect(c1!.seen).toEqual([1, 2, 3])
    expect(c2!.seen).toEqual([1, 3])
    expect(c3!.seen).toEqual([2, 3])
    for (const c of [c1, c2, c3]) c!.socket.close()
  })

  it('sends frames published together in one write per socket, in order', async () => {
    const c = await client('websocket')
    const other = await client('websocket')
    const writes = recordWrites(c.socket)
    coalesced(() => {
      io.to('room').emit('n', 1)
      io.to('room').emit('n', 2)
    })
    io.to('room').emit('n', 3)
    await until(() => c.seen.length === 3 && other.seen.length === 3)
    expect(c.seen).toEqual([1, 2, 3])
    expect(other.seen).toEqual([1, 2, 3])
    // One plain write for both frames (not a corked writev of two), then one for the next.
    expect(writes.map((w) => w.call)).toEqual(['write', 'write'])
    c.socket.close()
    other.socket.close()
  })

  it('keeps the order when a packet published together takes engine.io’s path', async () => {
    const c = await client('websocket')
    const binary: number[] = []
    c.socket.on('b', (data: ArrayBuffer) => {
      binary.push(c.seen.length)
      expect(new Uint8Array(data)[0]).toBe(7)
    })
    coalesced(() => {
      io.to('room').emit('n', 1)
      // A binary packet: no pre-built frame, so engine.io writes it; what was held must leave first.
      io.to('room').emit('b', Buffer.from([7]))
      io.to('room').emit('n', 2)
    })
    await until(() => c.seen.length === 2 && binary.length === 1)
    expect(c.seen).toEqual([1, 2])
    expect(binary).toEqual([1])
    c.socket.close()
  })
})
