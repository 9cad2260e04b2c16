/**
 * Broadcasts written as one pre-built WebSocket frame per socket (docs/realtime.md#fan-out).
 *
 * Socket.IO encodes a broadcast once and even builds its WebSocket frame once (socket.io-adapter's
 * `_encode`), but then hands that frame to every socket through engine.io's per-packet machinery —
 * a packet object and its events, the write buffer and its flush, a send callback per socket, and
 * a corked write of two buffers (frame header, payload). With thousands of watchers of one board
 * that per-socket work, not the system call, was the larger part of a push's cost.
 *
 * `directFanOut` wraps an adapter class (the in-memory one or the Redis adapter): it keeps
 * Socket.IO's room selection (`apply`) and encoding, joins the frame into one buffer, and writes it
 * straight to each WebSocket that has nothing waiting in engine.io — the call engine.io itself makes
 * for a pre-built frame (`ws`'s `Sender#sendFrame`). Every other connection (long polling, a packet
 * queued in engine.io, the SignalR bridges, a socket with outgoing listeners) and every other packet
 * (acknowledged, volatile, binary) takes Socket.IO's own path, so no socket's frames are reordered.
 * On other nodes the Redis adapter's local delivery goes through the same `_encode` and `apply`.
 *
 * `coalesced(write)` holds the frames written straight to each socket until `write` returns, then
 * writes each socket's frames as one buffer, so pushes published together (a board and its challenge
 * update) leave in one system call per socket. The buffer is joined once for every socket that got
 * the same frames: a plain write of one shared buffer costs about half of the corked write of two
 * (`writev`) the sockets were given before (docs/realtime.md#fan-out).
 */
import type { Namespace, Socket } from 'socket.io'

type Adapter = Namespace['adapter']
/** An adapter class as Socket.IO constructs it (`new Adapter(nsp)`; the Redis adapter takes more arguments). */
type AdapterClass<A extends unknown[]> = new (nsp: Namespace, ...rest: A) => Adapter

interface Packet {
  type: number
  id?: number
}

interface PacketOptions {
  volatile?: boolean
  /** The WebSocket frame socket.io-adapter built (header and payload), when the packet is one text frame. */
  wsPreEncodedFrame?: Buffer[]
}

/** The members of socket.io-adapter's `Adapter` overridden or read here (private in its typings). */
interface AdapterInternals {
  _encode(packet: Packet, packetOpts: PacketOptions): unknown[]
  apply(opts: unknown, callback: (socket: Socket) => void): void
  rooms: Map<string, Set<string>>
  nsp: Namespace
}

/** What `apply` is given to select sockets: rooms (all sockets when empty) and rooms to leave out. */
interface BroadcastSelection {
  rooms?: Set<string>
  except?: Set<string>
}

/** The one room a selection names with nothing left out, else null. */
function singleRoom(opts: unknown): string | null {
  const { rooms, except } = (opts ?? {}) as BroadcastSelection
  if (!(rooms instanceof Set) || rooms.size !== 1 || (except?.size ?? 0) > 0) return null
  return rooms.values().next().value ?? null
}

/** What engine.io and `ws` keep of a connection (not part of their typed APIs). */
interface Connection {
  readyState: string
  writeBuffer: unknown[]
  transport: { name: string; perMessageDeflate?: unknown; socket?: RawWebSocket }
}

interface Sender {
  _queue?: unknown[]
  sendFrame: (list: Buffer[], cb?: (err?: Error) => void) => void
}

interface RawWebSocket {
  readyState: number
  _sender?: Partial<Sender>
}

/** socket.io-parser's EVENT packet type, and `ws`'s OPEN state. */
const EVENT = 2
const OPEN = 1

/** The frames held by the `coalesced` call in progress, per WebSocket sender in first-write order, or null outside one. */
let held: Map<Sender, Buffer[]> | null = null

/** Run `write` (several publishes); each socket's frames written meanwhile leave together, in one write, when it returns. */
export function coalesced(write: () => void): void {
  if (held) return write()
  held = new Map<Sender, Buffer[]>()
  try {
    write()
  } finally {
    // `releaseHeld` may have replaced the map meanwhile: what is held now is the rest.
    const rest = held
    held = null
    release(rest)
  }
}

/**
 * Inside `coalesced`, a packet about to take engine.io's path (not a plain event, or a socket
 * engine.io must write to): what is held leaves first, so no socket's frames are reordered.
 */
function releaseHeld(): void {
  if (!held || held.size === 0) return
  const frames = held
  held = new Map()
  release(frames)
}

/** Write each sender's held frames as one buffer, joined once per distinct sequence of frames. */
function release(frames: Map<Sender, Buffer[]>): void {
  const ids = new Map<Buffer, number>()
  const joined = new Map<string, Buffer>()
  // The sockets of a room come one after another with the same frames: the previous socket's
  // buffer is reused when its frames are these, without building the sequence's key.
  let previous: { list: Buffer[]; buffer: Buffer } | null = null
  for (const [sender, list] of frames) {
    if (list.length === 1) {
      sender.sendFrame(list)
      continue
    }
    if (previous && sameFrames(previous.list, list)) {
      sender.sendFrame([previous.buffer])
      continue
    }
    let key = ''
    for (const frame of list) {
      let id = ids.get(frame)
      if (id === undefined) ids.set(frame, (id = ids.size))
      key += `${id},`
    }
    let buffer = joined.get(key)
    if (!buffer) joined.set(key, (buffer = Buffer.concat(list)))
    previous = { list, buffer }
    sender.sendFrame([buffer])
  }
}

/** Whether two sockets' held frames are the same buffers in the same order. */
function sameFrames(a: Buffer[], b: Buffer[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * `Base` with broadcasts written straight to the WebSockets; `Base` itself when its socket.io-adapter
 * lacks the members this relies on (a later major keeps Socket.IO's own fan-out rather than break).
 */
export function directFanOut<A extends unknown[]>(Base: AdapterClass<A>): AdapterClass<A> {
  const proto = Base.prototype as Partial<AdapterInternals>
  if (typeof proto._encode !== 'function' || typeof proto.apply !== 'function') return Base
  const Open = Base as unknown as new (nsp: Namespace, ...rest: A) => AdapterInternals

  class DirectFanOut extends Open {
    /**
     * The frame `_encode` built for the broadcast whose `apply` follows it at once
     * (`Adapter#broadcast` calls one right after the other); null for any other `apply`.
     */
    private frame: Buffer[] | null = null

    override _encode(packet: Packet, packetOpts: PacketOptions): unknown[] {
      const encoded = super._encode(packet, packetOpts)
      const built = packetOpts.wsPreEncodedFrame
      // One buffer, one write: no cork and writev per socket (engine.io's own path uses it too).
      if (built && built.length > 1) packetOpts.wsPreEncodedFrame = [Buffer.concat(built)]
      this.frame = packet.type === EVENT && packet.id === undefined && !packetOpts.volatile ? (packetOpts.wsPreEncodedFrame ?? null) : null
      return encoded
    }

    override apply(opts: unknown, callback: (socket: Socket) => void): void {
      const frame = this.frame
      this.frame = null
      if (!frame) {
        releaseHeld()
        return super.apply(opts, callback)
      }
      const deliver = (socket: Socket) => {
        if (!writeFrame(socket, frame)) callback(socket)
      }
      // One room, nothing left out (every push to a game room): its sockets are distinct already, so
      // the adapter's set of the ids reached so far — an insertion per socket and push — is not needed.
      const room = singleRoom(opts)
      if (room === null || !(this.rooms instanceof Map)) return super.apply(opts, deliver)
      const ids = this.rooms.get(room)
      if (!ids) return
      const sockets = this.nsp.sockets
      for (const id of ids) {
        const socket = sockets.get(id)
        if (socket) deliver(socket)
      }
    }
  }
  return DirectFanOut as unknown as AdapterClass<A>
}

/** Write `frame` to the socket's WebSocket when nothing of it waits in engine.io; false to leave it to engine.io. */
function writeFrame(socket: Socket, frame: Buffer[]): boolean {
  const conn = socket.conn as unknown as Connection
  const transport = conn.transport
  const ws = transport.socket
  const sender = ws?._sender
  if (
    conn.readyState !== 'open' ||
    conn.writeBuffer.length > 0 ||
    transport.name !== 'websocket' ||
    transport.perMessageDeflate ||
    ws?.readyState !== OPEN ||
    typeof sender?.sendFrame !== 'function' ||
    (sender._queue?.length ?? 0) > 0 ||
    socket.listenersAnyOutgoing().length > 0
  ) {
    if (sender && held?.has(sender as Sender)) releaseHeld()
    return false
  }
  const direct = sender as Sender
  if (held) {
    const list = held.get(direct)
    if (list) list.push(frame[0]!)
    else held.set(direct, [frame[0]!])
  } else direct.sendFrame(frame)
  return true
}

/** Bytes a socket's WebSocket has not handed to the kernel yet (0 for other transports). */
export function unsentBytes(socket: Socket): number {
  const ws = (socket.conn as unknown as Connection).transport.socket as { bufferedAmount?: number } | undefined
  return ws?.bufferedAmount ?? 0
}
