/**
 * GZ::CTF's hubs as ASP.NET Core SignalR speaks them (JSON hub protocol 1, WebSockets transport),
 * on `/hub/user`, `/hub/monitor` and `/hub/admin` beside the Socket.IO namespaces of the same names
 * (docs/realtime.md#signalr-hubs).
 *
 * Nothing here decides who may listen or what is sent. Each SignalR connection is handed to
 * Socket.IO as one more engine.io connection (`EngineBridge`) that joins the hub's namespace, so
 * the namespace's connect check, its rooms, room moves, re-checks, refusals, the Redis adapter
 * (other nodes' pushes) and the one emitter of realtime/publish.ts serve it exactly as they serve
 * a socket.io-client; this file only translates frames: Socket.IO packets written to the bridge
 * become SignalR invocations, a refusal becomes a close message that forbids reconnecting.
 */
import { EventEmitter } from 'node:events'
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Server } from 'socket.io'
import { WebSocketServer, WebSocket, type RawData } from 'ws'
import { NAMESPACES, type NamespaceName, type Refusal } from '@flagwave/shared/events'
import type { Services } from '../services.js'
import { isCrossSite, sitePolicyOf, type SitePolicy } from '../lib/crossSite.js'

/** ASP.NET Core's defaults: keep-alive 15 s, client timeout 30 s, handshake 15 s, 32 KiB per received message. */
const KEEP_ALIVE_MS = 15_000
const CLIENT_TIMEOUT_MS = 30_000
const HANDSHAKE_TIMEOUT_MS = 15_000
const MAX_MESSAGE_BYTES = 32 * 1024
/**
 * A connection whose WebSocket still holds this much unsent output is dropped rather than left
 * to grow (its client reconnects and refetches, docs/realtime.md#fallback-refresh). Pushes are
 * paced before that point (publish.ts `backlogged` sees the bridge as not writable).
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024
const SWEEP_MS = 5_000
const RS = '\x1e'

const HUB_PATH = /^\/hub\/(user|monitor|admin)(\/negotiate)?\/?$/
/** Connection tokens are ours (base64url); a client that skips negotiation sends none. */
const TOKEN = /^[A-Za-z0-9_-]{1,64}$/
const CROSS_SITE_TITLE = '跨站请求已被拒绝'

/** The hub protocol's message types (ASP.NET Core SignalR, HubProtocol). */
const MessageType = { Invocation: 1, StreamItem: 2, Completion: 3, StreamInvocation: 4, CancelInvocation: 5, Ping: 6, Close: 7 } as const

/** The events GZ::CTF's own hubs send; under `compat=1.7` or later their `time` is Unix milliseconds, as GZ::CTF ≥ 1.7 sends it. */
const GZCTF_EVENTS = new Set(['ReceivedGameNotice', 'ReceivedGameEvent', 'ReceivedSubmissions', 'ReceivedLog'])

interface Hub {
  name: NamespaceName
  negotiate: boolean
}

function hubOf(url: string | undefined): (Hub & { query: URLSearchParams }) | null {
  // Every HTTP request passes here (server.ts): most are answered by the prefix alone.
  if (!url?.startsWith('/hub/')) return null
  const parsed = new URL(url, 'http://hub.invalid')
  const match = HUB_PATH.exec(parsed.pathname)
  return match ? { name: match[1] as NamespaceName, negotiate: match[2] !== undefined, query: parsed.searchParams } : null
}

/** Whether a request path is one of the hubs' (their negotiate included). */
export function isHubPath(url: string | undefined): boolean {
  return hubOf(url) !== null
}

/** The `compat` hub query: a GZ::CTF version of 1.7 or later switches GZ::CTF events' times to milliseconds. */
function wantsMilliseconds(query: URLSearchParams): boolean {
  const match = /^(\d+)\.(\d+)/.exec(query.get('compat') ?? '')
  if (!match) return false
  const [major, minor] = [Number(match[1]), Number(match[2])]
  return major > 1 || (major === 1 && minor >= 7)
}

/**
 * What a Socket.IO packet written to a bridge becomes. Packets are encoded by the server
 * (`<type>[<nsp>,][<ack id>][<json>]`, socket.io-parser); the hubs only write events (2) and
 * disconnects (1). Connect acknowledgements (0) are dropped.
 */
type Translated = { frame: string } | { refusal: string } | { disconnect: true } | null

function invocationFrame(name: string, args: string, milliseconds: boolean): string {
  if (milliseconds && GZCTF_EVENTS.has(name)) {
    const parsed = JSON.parse(args) as unknown[]
    const values = parsed.map((arg) => {
      if (typeof arg !== 'object' || arg === null || typeof (arg as { time?: unknown }).time !== 'string') return arg
      const time = Date.parse((arg as { time: string }).time)
      return Number.isNaN(time) ? arg : { ...arg, time }
    })
    args = JSON.stringify(values)
  }
  return `{"type":${MessageType.Invocation},"target":${JSON.stringify(name)},"arguments":${args}}${RS}`
}

function translate(encoded: string, milliseconds: boolean): Translated {
  const type = encoded.charCodeAt(0) - 48
  if (type === 1) return { disconnect: true }
  if (type !== 2) return null
  let i = 1
  if (encoded[i] === '/') i = encoded.indexOf(',', i) + 1
  while (i < encoded.length && encoded.charCodeAt(i) >= 48 && encoded.charCodeAt(i) <= 57) i += 1
  // `["Name",arg1,…]`: hub event names are plain identifiers (shared/src/events.ts), so the name
  // ends at the next quote and the arguments are the rest of the array, copied without re-encoding.
  const body = encoded.slice(i)
  const end = body.indexOf('"', 2)
  if (i === 0 || !body.startsWith('["') || end < 0) return null
  const name = body.slice(2, end)
  const rest = body.slice(end + 1)
  const args = rest.startsWith(',') ? `[${rest.slice(1)}` : '[]'
  if (name === 'Refused') return { refusal: args }
  return { frame: invocationFrame(name, args, milliseconds) }
}

/**
 * One broadcast writes the same encoded string to every bridge in the room; the frame is built
 * once per broadcast (and time form) instead of once per connection.
 */
const last: { encoded: string; translated: [Translated | undefined, Translated | undefined] } = { encoded: '', translated: [undefined, undefined] }

function translateOnce(encoded: string, milliseconds: boolean): Translated {
  if (last.encoded !== encoded) {
    last.encoded = encoded
    last.translated = [undefined, undefined]
  }
  const slot = milliseconds ? 1 : 0
  return (last.translated[slot] ??= translate(encoded, milliseconds))
}

/**
 * The part of engine.io's `Socket` that Socket.IO's Client, Socket and adapter use, backed by one
 * SignalR connection. Socket.IO writes encoded packets here and listens for `data` and `close`.
 */
class EngineBridge extends EventEmitter {
  readonly id = randomBytes(15).toString('base64url')
  readonly protocol = 4
  readyState: 'open' | 'closed' = 'open'
  /** Frames go straight to the WebSocket; nothing waits here (publish.ts reads it for pacing). */
  readonly writeBuffer: never[] = []
  readonly remoteAddress: string
  readonly transport: { readonly name: string; readonly writable: boolean }
  private closeEmitted = false

  constructor(
    readonly request: IncomingMessage,
    private readonly connection: HubConnection,
  ) {
    super()
    this.remoteAddress = request.socket.remoteAddress ?? ''
    // "Writable" as engine.io means it: the previous push has left (pacing, publish.ts).
    this.transport = {
      name: 'websocket',
      get writable() {
        return connection.drained()
      },
    }
  }

  write(encoded: string | Buffer): this {
    if (this.readyState === 'open' && typeof encoded === 'string') this.connection.fromSocketIo(encoded)
    return this
  }

  send(encoded: string | Buffer): this {
    return this.write(encoded)
  }

  /**
   * The connection ends (Socket.IO disconnects it, or the hub closes it): the close message goes
   * out and Socket.IO hears of it at once, so the socket leaves its rooms without waiting for the
   * client to answer the WebSocket's closing handshake.
   */
  close(): this {
    if (this.readyState === 'open') {
      this.readyState = 'closed'
      this.connection.close(null, true)
    }
    this.transportClosed('forced close')
    return this
  }

  /** The WebSocket is gone or closing: tell Socket.IO once, so the socket leaves its rooms. */
  transportClosed(reason: string): void {
    this.readyState = 'closed'
    if (this.closeEmitted) return
    this.closeEmitted = true
    this.emit('close', reason)
  }
}

/** One SignalR connection over a WebSocket, from the handshake to the close message. */
class HubConnection {
  private bridge: EngineBridge | null = null
  private pending = ''
  private refusal: Refusal['reason'] | null = null
  private closed = false
  readonly opened = Date.now()
  lastReceived = Date.now()
  lastSent = Date.now()

  constructor(
    private readonly hubs: SignalRHubs,
    private readonly ws: WebSocket,
    private readonly request: IncomingMessage,
    private readonly hub: NamespaceName,
    private readonly milliseconds: boolean,
  ) {
    ws.on('message', (data) => this.receive(data))
    ws.on('close', () => this.transportClosed('transport close'))
    ws.on('error', () => this.transportClosed('transport error'))
  }

  get handshaken(): boolean {
    return this.bridge !== null
  }

  drained(): boolean {
    return this.ws.bufferedAmount === 0
  }

  private receive(data: RawData): void {
    this.lastReceived = Date.now()
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8')
    this.pending += text
    let end: number
    while (!this.closed && (end = this.pending.indexOf(RS)) >= 0) {
      const record = this.pending.slice(0, end)
      this.pending = this.pending.slice(end + 1)
      if (this.bridge) this.message(record)
      else this.handshake(record)
    }
    // A record is never longer than one message may be; a client that never ends one is cut off.
    if (this.pending.length > MAX_MESSAGE_BYTES) this.close('Message too large.', false)
  }

  private handshake(record: string): void {
    let request: { protocol?: unknown; version?: unknown }
    try {
      request = JSON.parse(record) as typeof request
    } catch {
      return this.handshakeFailed('Handshake request is not valid JSON.')
    }
    if (request.protocol !== 'json') return this.handshakeFailed(`The protocol '${String(request.protocol)}' is not supported.`)
    if (request.version !== 1) return this.handshakeFailed(`The server does not support version ${String(request.version)} of the 'json' protocol.`)
    this.sendRaw(`{}${RS}`)
    const bridge = new EngineBridge(this.request, this)
    this.bridge = bridge
    // Socket.IO takes it as a new engine.io connection, then the connect packet of the hub's
    // namespace runs the namespace's own connect handler (realtime/server.ts).
    this.hubs.io.engine.emit('connection', bridge)
    bridge.emit('data', `0${NAMESPACES[this.hub]},{}`)
  }

  private handshakeFailed(error: string): void {
    this.sendRaw(`${JSON.stringify({ error })}${RS}`)
    this.closed = true
    this.ws.close(1000)
  }

  private message(record: string): void {
    let message: { type?: unknown; invocationId?: unknown; target?: unknown }
    try {
      message = JSON.parse(record) as typeof message
    } catch {
      return this.close('Connection closed with an error. Invalid JSON message.', false)
    }
    if (typeof message !== 'object' || message === null || typeof message.type !== 'number') {
      return this.close('Connection closed with an error. Invalid message.', false)
    }
    switch (message.type) {
      case MessageType.Close:
        this.closed = true
        this.ws.close(1000)
        return
      case MessageType.Invocation:
      case MessageType.StreamInvocation:
        // The hubs take no calls (docs/realtime.md#hubs-and-namespaces); a call that waits for
        // an answer gets the error ASP.NET gives for a method that does not exist.
        if (typeof message.invocationId === 'string') {
          const error = `Failed to invoke '${String(message.target)}' due to an error on the server. HubException: Method does not exist.`
          this.sendRaw(`${JSON.stringify({ type: MessageType.Completion, invocationId: message.invocationId, error })}${RS}`)
        }
        return
      default:
        // Pings only keep the connection alive; stream items, completions and cancellations have nothing to act on.
        return
    }
  }

  /** A packet Socket.IO wrote to this connection's socket. */
  fromSocketIo(encoded: string): void {
    const out = translateOnce(encoded, this.milliseconds)
    if (out === null) return
    if ('frame' in out) return this.sendRaw(out.frame)
    if ('refusal' in out) {
      // The namespace refused the caller; the disconnect that follows carries the reason.
      const [refusal] = JSON.parse(out.refusal) as [Refusal]
      this.refusal = refusal.reason
      return
    }
    this.close(null, true)
  }

  /**
   * End with a close message. A refusal is an error the client must not retry (`Refused: role`),
   * like GZ::CTF aborting the connection; any other close (a role change, a ban, shutdown) allows
   * reconnecting, and the reconnection is decided afresh.
   */
  close(error: string | null, allowReconnect: boolean): void {
    if (this.closed) return
    this.closed = true
    if (this.refusal) {
      error = `Refused: ${this.refusal}`
      allowReconnect = false
    }
    const message: { type: number; error?: string; allowReconnect?: boolean } = { type: MessageType.Close }
    if (error) message.error = error
    if (allowReconnect) message.allowReconnect = true
    this.sendRaw(`${JSON.stringify(message)}${RS}`)
    this.ws.close(1000)
    this.bridge?.close()
  }

  /** Ping when idle, drop a client silent for too long or that never shook hands. */
  sweep(now: number): void {
    if (this.closed) return
    if (!this.handshaken) {
      if (now - this.opened >= HANDSHAKE_TIMEOUT_MS) this.handshakeFailed('Handshake was canceled.')
      return
    }
    if (now - this.lastReceived >= CLIENT_TIMEOUT_MS) return this.close('Server timeout elapsed without receiving a message from the client.', true)
    if (now - this.lastSent >= KEEP_ALIVE_MS) this.sendRaw(`{"type":${MessageType.Ping}}${RS}`)
  }

  private sendRaw(frame: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A consumer this far behind would only grow the buffer: cut it off (see MAX_BUFFERED_BYTES).
      this.ws.terminate()
      return
    }
    this.lastSent = Date.now()
    this.ws.send(frame)
  }

  private transportClosed(reason: string): void {
    this.closed = true
    this.hubs.forget(this)
    this.bridge?.transportClosed(reason)
  }

  terminate(): void {
    this.ws.terminate()
  }
}

/** The hubs' HTTP side: negotiation requests and WebSocket upgrades (server.ts routes them here). */
export class SignalRHubs {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false })
  private readonly connections = new Set<HubConnection>()
  private readonly policy: SitePolicy
  private readonly sweeper: NodeJS.Timeout

  constructor(
    readonly io: Server,
    services: Services,
  ) {
    this.policy = sitePolicyOf(services.config)
    this.sweeper = setInterval(() => {
      const now = Date.now()
      for (const connection of this.connections) connection.sweep(now)
    }, SWEEP_MS)
    this.sweeper.unref()
  }

  /**
   * `POST /hub/{name}/negotiate`: a connection id and token for the WebSocket transport. They are
   * not remembered — access is decided on the WebSocket — so any node can take the connection.
   * Returns false for requests that are not a negotiation (Koa answers them).
   */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean {
    const hub = hubOf(req.url)
    if (!hub?.negotiate || req.method !== 'POST') return false
    req.resume()
    if (isCrossSite(req.headers, req.socket.remoteAddress, this.policy)) {
      res.writeHead(403, { 'Content-Type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify({ title: CROSS_SITE_TITLE, status: 403 }))
      return true
    }
    const version = Number(hub.query.get('negotiateVersion') ?? '0')
    const connectionId = randomBytes(16).toString('base64url')
    const transports = [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }]
    const body =
      version >= 1
        ? { negotiateVersion: 1, connectionId, connectionToken: randomBytes(16).toString('base64url'), availableTransports: transports }
        : { negotiateVersion: 0, connectionId, availableTransports: transports }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
    res.end(JSON.stringify(body))
    return true
  }

  /** The WebSocket at `/hub/{name}?id=…` (or without `id` for a client that skips negotiation). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const hub = hubOf(req.url)
    const refuse = (status: string, text: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`)
    }
    if (!hub || hub.negotiate) return refuse('404 Not Found', 'Not Found')
    // The same judgement as Socket.IO's allowRequest (realtime/server.ts, docs/realtime.md#handshake-origin).
    if (isCrossSite(req.headers, req.socket.remoteAddress, this.policy)) return refuse('403 Forbidden', CROSS_SITE_TITLE)
    const id = hub.query.get('id')
    if (id !== null && !TOKEN.test(id)) return refuse('400 Bad Request', 'Invalid connection id.')
    // Socket.IO's handshake query (`game=`) is read from here by the namespaces.
    Object.assign(req, { _query: Object.fromEntries(hub.query) })
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.connections.add(new HubConnection(this, ws, req, hub.name, wantsMilliseconds(hub.query)))
    })
  }

  forget(connection: HubConnection): void {
    this.connections.delete(connection)
  }

  /** Drop whatever is still open (shutdown; Socket.IO has already closed its sockets). */
  close(): void {
    clearInterval(this.sweeper)
    for (const connection of this.connections) connection.terminate()
    this.connections.clear()
  }
}
