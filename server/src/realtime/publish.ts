/**
 * The immediate `Publish` (realtime/sink.ts) and the only code that emits realtime events.
 * Typed against the hub event maps of `shared/src/events.ts`; with the Redis adapter installed,
 * emits and room moves reach every node. Workers use it directly after their own commit.
 */
import type { Server } from 'socket.io'
import { NAMESPACES, rooms, type NamespaceName } from '@flagwave/shared/events'
import type { ArgsOf, EventOf, ImmediatePublish } from './sink.js'
import { coalesced, unsentBytes } from './fanOut.js'

/** What engine.io keeps of a connection that tells whether it is still writing (not part of its typed API). */
interface ConnectionWriteState {
  writeBuffer?: unknown[]
  transport?: { writable?: boolean }
}

interface Emitter {
  emit: (event: string, ...args: unknown[]) => void
}

/** A publish carried to the other nodes in a relay message: namespace, room, event, arguments. */
type Relayed = [NamespaceName, string, string, unknown[]]

/** The server-side event that carries a `relayed` call's publishes to the other nodes. */
const RELAY = 'flagwave:relay'

export class Realtime implements ImmediatePublish {
  private io: Server | null = null
  private recheck: ((gameId: number) => Promise<void>) | null = null
  /** The events published inside the `together` call in progress, or null outside one. */
  private joined: string[] | null = null
  /** Whether other nodes hear this node's publishes (the Redis adapter is installed). */
  private clustered = false
  /** The publishes of the `relayed` call in progress, or null outside one. */
  private relay: Relayed[] | null = null

  /** `pushed` hears how long each push took to write to this node's sockets (the fan-out metric). */
  constructor(private readonly pushed: (event: string, seconds: number) => void = () => undefined) {}

  /** Start emitting on `io`; `recheck` re-decides the sockets of a game (realtime/server.ts). */
  attach(io: Server, recheck: (gameId: number) => Promise<void>, clustered = false): void {
    this.io = io
    this.recheck = recheck
    this.clustered = clustered
    if (clustered) io.on(RELAY, (message: unknown) => this.replay(message))
  }

  get server(): Server | null {
    return this.io
  }

  publish<N extends NamespaceName, E extends EventOf<N>>(namespace: N, room: string, event: E, ...args: ArgsOf<N, E>): void {
    if (!this.io) return
    const started = performance.now()
    const hub = this.io.of(NAMESPACES[namespace])
    // Inside `relayed`, the other nodes get it with the call's other publishes, in one message.
    this.relay?.push([namespace, room, event, args as unknown[]])
    // Only this node's sockets are left to reach (no other node, or they hear the relay): none in
    // the room, nothing to encode. Most team and monitor rooms are empty on most nodes.
    if ((this.relay || !this.clustered) && !hub.adapter.rooms.has(room)) return
    const target = (this.relay ? hub.local : hub).to(room) as unknown as Emitter
    target.emit(event, ...(args as unknown[]))
    // Inside `together` the writes happen when it ends: measured there, once.
    if (this.joined) this.joined.push(event)
    else this.pushed(event, (performance.now() - started) / 1000)
  }

  /**
   * Run `write`, several publishes; each socket's frames leave together when it returns (one write
   * instead of one each), measured as one push under `name`, else the first event's name (a
   * board's, whose challenge update rides along).
   */
  together(write: () => void, name?: string): void {
    if (this.joined) return write()
    const events: string[] = (this.joined = [])
    const started = performance.now()
    try {
      coalesced(write)
    } finally {
      this.joined = null
      if (events.length > 0) this.pushed(name ?? events[0]!, (performance.now() - started) / 1000)
    }
  }

  /**
   * Run `write`, several publishes (a settled batch, measured as one push under `name`): each of
   * this node's sockets gets its frames of the batch in one write when it returns — a batch of first
   * solves is a blood notice each to every watcher, one write per notice and socket before — and the
   * other nodes get them all in one Redis message, instead of one message each
   * (docs/realtime.md#relay). Relayed publishes keep their order on every node: the message travels
   * on the adapter's own connections, behind the publishes made before it and ahead of those made
   * after it.
   */
  relayed(name: string, write: () => void): void {
    if (this.relay || !this.clustered || !this.io) return this.together(write, name)
    const relay: Relayed[] = (this.relay = [])
    try {
      this.together(write, name)
    } finally {
      this.relay = null
      if (relay.length > 0) this.io.serverSideEmit(RELAY, JSON.stringify(relay))
    }
  }

  /** Another node's relayed publishes, to this node's sockets, in their order (each socket's in one write). */
  private replay(message: unknown): void {
    if (!this.io || typeof message !== 'string') return
    const io = this.io
    coalesced(() => {
      for (const [namespace, room, event, args] of JSON.parse(message) as Relayed[]) {
        if (!Object.hasOwn(NAMESPACES, namespace)) continue
        ;(io.of(NAMESPACES[namespace]).local.to(room) as unknown as Emitter).emit(event, ...args)
      }
    })
  }

  /**
   * Whether at least a tenth of this node's sockets in `room` have not yet written out the
   * previous push (with thousands of watchers the fan-out, not the engine, is the limit, and
   * queueing pushes faster than they drain only grows memory).
   */
  backlogged(namespace: NamespaceName, room: string): boolean {
    const hub = this.io?.of(NAMESPACES[namespace])
    const ids = hub?.adapter.rooms.get(room)
    if (!hub || !ids || ids.size === 0) return false
    let busy = 0
    for (const id of ids) {
      const socket = hub.sockets.get(id)
      const conn = socket?.conn as ConnectionWriteState | undefined
      // Pushes written straight to the WebSocket (realtime/fanOut.ts) wait in its buffer, not engine.io's.
      if (conn && ((conn.writeBuffer?.length ?? 0) > 0 || conn.transport?.writable === false || unsentBytes(socket!) > 0)) busy += 1
    }
    return busy * 10 >= ids.size && busy > 0
  }

  /**
   * Tell every socket of every hub that the server is going away and when to come back
   * (`ServerShutdown`), before `close()` drops them.
   */
  announceShutdown(retryMs: number): void {
    if (!this.io) return
    for (const namespace of Object.keys(NAMESPACES) as NamespaceName[]) this.broadcast(namespace, 'ServerShutdown', { retryMs })
  }

  /** Drop every socket and stop Socket.IO. */
  async close(): Promise<void> {
    const io = this.io
    if (!io) return
    io.disconnectSockets(true)
    await new Promise<void>((resolve) => io.close(() => resolve()))
  }

  /** Send `event` to every socket of the hub `namespace`. */
  private broadcast<N extends NamespaceName, E extends EventOf<N>>(namespace: N, event: E, ...args: ArgsOf<N, E>): void {
    const hub = this.io!.of(NAMESPACES[namespace]) as unknown as { emit: (event: string, ...args: unknown[]) => void }
    hub.emit(event, ...(args as unknown[]))
  }

  /** Empty a user-hub room on every node (a deleted team). */
  closeRoom(room: string): void {
    this.io?.of(NAMESPACES.user).in(room).socketsLeave(room)
  }

  /**
   * Make the sockets of `userIds` on `namespace` join `room`, on every node. With `within`, only
   * the sockets already in that room join (e.g. the user-hub sockets watching one game).
   * Resolves once the sockets have joined, so events published afterwards reach them.
   */
  async joinUsers(namespace: NamespaceName, userIds: string[], room: string, within?: string): Promise<void> {
    if (!this.io || userIds.length === 0) return
    if (!within) {
      const hub = this.io.of(NAMESPACES[namespace])
      // With the Redis adapter a cluster-wide join reaches even this node only after a round
      // trip through Redis; joining this node's sockets first means an event published right
      // after the join (the outbox's next entry) already reaches them.
      hub.local.in(userIds.map(rooms.user)).socketsJoin(room)
      hub.in(userIds.map(rooms.user)).socketsJoin(room)
      return
    }
    const sockets = await this.io.of(NAMESPACES[namespace]).in(userIds.map(rooms.user)).fetchSockets()
    for (const socket of sockets) if (!within || socket.rooms.has(within)) socket.join(room)
  }

  /** Make the sockets of `userIds` on `namespace` leave `room`, on every node. */
  leaveUsers(namespace: NamespaceName, userIds: string[], room: string): void {
    if (!this.io || userIds.length === 0) return
    const hub = this.io.of(NAMESPACES[namespace])
    // This node at once (see joinUsers), then every node.
    hub.local.in(userIds.map(rooms.user)).socketsLeave(room)
    hub.in(userIds.map(rooms.user)).socketsLeave(room)
  }

  /**
   * Re-decide the sockets watching a game, on every node; resolves once done, so the events
   * published after it reach only those still allowed. Never rejects (failures are logged).
   */
  async recheckGame(gameId: number): Promise<void> {
    await this.recheck?.(gameId)
  }

  /** Drop every socket of a user on every namespace and node (bans, role changes, deletion). */
  disconnectUser(userId: string): void {
    if (!this.io) return
    for (const ns of Object.values(NAMESPACES)) this.io.of(ns).in(rooms.user(userId)).disconnectSockets(true)
  }
}
