/**
 * Real socket.io-client connections for realtime tests (docs/realtime.md): websocket transport only,
 * the session cookie sent as a header like a browser would, no automatic reconnection so that a
 * refused connection stays refused. Helpers await an event, assert that none arrives, await a
 * disconnect, and wait until the server has put a socket into a room (the server joins rooms
 * asynchronously after the handshake, so a test must not publish before that).
 */
import { io, type Socket } from 'socket.io-client'
import { NAMESPACES, rooms } from '@flagwave/shared/events'
import type { TestServer } from './server.js'
import type { ApiClient } from './client.js'

export type Namespace = (typeof NAMESPACES)[keyof typeof NAMESPACES]

export interface ConnectOptions {
  /** The `game` handshake query. */
  game?: number | string
  /** A Cookie header; or pass `client` to use that client's cookie jar. */
  cookie?: string
  client?: ApiClient
  /** More handshake headers (Origin, Host, forwarded headers), as a browser or a proxy would send them. */
  headers?: Record<string, string>
  /** Every event the socket receives is appended here, from before the handshake (a refusal right after the connect included). */
  record?: ReceivedEvent[]
  timeoutMs?: number
}

export interface ReceivedEvent {
  event: string
  payload: unknown
}

const open = new Set<Socket>()
/** Why a socket disconnected, recorded from the start so a fast refusal is not missed. */
const reasons = new WeakMap<Socket, string>()

/** Connect to a hub namespace and resolve once the handshake completed. */
export function connect(server: Pick<TestServer, 'url'>, namespace: Namespace, options: ConnectOptions = {}): Promise<Socket> {
  const cookie = options.cookie ?? options.client?.cookieHeader ?? ''
  const socket = io(server.url + namespace, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: options.timeoutMs ?? 10_000,
    query: options.game === undefined ? {} : { game: String(options.game) },
    extraHeaders: { ...options.headers, ...(cookie ? { cookie } : {}) },
  })
  open.add(socket)
  const record = options.record
  if (record) socket.onAny((event: string, payload: unknown) => record.push({ event, payload }))
  socket.on('disconnect', (reason) => {
    reasons.set(socket, reason)
    open.delete(socket)
  })
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', (err) => {
      open.delete(socket)
      socket.close()
      reject(err)
    })
  })
}

/** The next `event` on `socket` (its first argument), or a rejection after `timeoutMs`. */
export function nextEvent<T = unknown>(socket: Socket, event: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler)
      reject(new Error(`no ${event} within ${timeoutMs} ms`))
    }, timeoutMs)
    const handler = (payload: T) => {
      clearTimeout(timer)
      resolve(payload)
    }
    socket.once(event, handler)
  })
}

/** Resolve after `ms` if `event` did not arrive on `socket`; reject as soon as it does. */
export function noEvent(socket: Socket, event: string, ms = 300): Promise<void> {
  return new Promise((resolve, reject) => {
    const handler = (payload: unknown) => {
      clearTimeout(timer)
      reject(new Error(`unexpected ${event}: ${JSON.stringify(payload)}`))
    }
    const timer = setTimeout(() => {
      socket.off(event, handler)
      resolve()
    }, ms)
    socket.once(event, handler)
  })
}

/** Resolve with the disconnect reason (`io server disconnect` when the server dropped it). */
export function disconnected(socket: Socket, timeoutMs = 10_000): Promise<string> {
  const known = reasons.get(socket)
  if (known !== undefined) return Promise.resolve(known)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still connected after ${timeoutMs} ms`)), timeoutMs)
    socket.once('disconnect', (reason) => {
      clearTimeout(timer)
      resolve(reason)
    })
  })
}

/** The rooms the server currently has this socket in (empty when it is gone). */
export function serverRooms(server: Pick<TestServer, 'services'>, namespace: Namespace, socket: Socket): Set<string> {
  const io = server.services.realtime.server
  const remote = socket.id ? io?.of(namespace).sockets.get(socket.id) : undefined
  return new Set(remote ? [...remote.rooms] : [])
}

/** One system call that wrote to a connection's TCP socket, and what it wrote. */
export interface SocketWrite {
  call: 'write' | 'writev'
  text: string
}

/**
 * The writes the server makes from now on to one WebSocket connection, given its server side (a
 * Socket.IO socket): how frames leave (realtime/fanOut.ts writes a socket's held frames in one call).
 */
export function recordServerWrites(remote: { conn: unknown }): SocketWrite[] {
  type Write = (this: unknown, ...args: unknown[]) => unknown
  const raw = (remote.conn as { transport: { socket: { _socket: { _write: Write; _writev: Write } } } }).transport.socket._socket
  const writes: SocketWrite[] = []
  const write = raw._write
  const writev = raw._writev
  raw._write = function (chunk: unknown, ...rest: unknown[]) {
    writes.push({ call: 'write', text: String(chunk) })
    return write.call(this, chunk, ...rest)
  }
  raw._writev = function (chunks: unknown, ...rest: unknown[]) {
    writes.push({ call: 'writev', text: (chunks as { chunk: unknown }[]).map((c) => String(c.chunk)).join('') })
    return writev.call(this, chunks, ...rest)
  }
  return writes
}

/** Wait until the server has put `socket` into `room`. */
export async function joined(server: Pick<TestServer, 'services'>, namespace: Namespace, socket: Socket, room: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!serverRooms(server, namespace, socket).has(room)) {
    if (!socket.connected) throw new Error(`socket was disconnected before joining ${room}`)
    if (Date.now() > deadline) throw new Error(`socket not in ${room} after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** Close every socket opened through `connect` (call in afterEach). */
export function closeAllSockets(): void {
  for (const socket of open) socket.close()
  open.clear()
}

/** An event as a test records it: with a global arrival sequence and time, to check pushes' order. */
export interface SequencedEvent {
  event: string
  // Payloads are read field by field by the tests that check them.
  payload: any
  seq: number
  at: number
}
let sequence = 0

/** Record every event a socket receives, numbered across all sockets of the test run. */
export function recordEvents(socket: Socket): SequencedEvent[] {
  const list: SequencedEvent[] = []
  socket.onAny((event: string, payload: unknown) => list.push({ event, payload, seq: ++sequence, at: Date.now() }))
  return list
}

/** Poll `fn` until it gives a value (not undefined or false). */
export async function until<T>(fn: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = fn()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** A user-hub socket watching a game (and its team room), recording what it receives. */
export async function watchGame(server: Pick<TestServer, 'url' | 'services'>, gameId: number, who?: { client: ApiClient }, participationId?: number) {
  const socket = await connect(server, '/hub/user', { game: gameId, client: who?.client })
  await joined(server, '/hub/user', socket, rooms.game(gameId))
  if (participationId !== undefined) await joined(server, '/hub/user', socket, rooms.team(gameId, participationId))
  return { socket, events: recordEvents(socket) }
}
