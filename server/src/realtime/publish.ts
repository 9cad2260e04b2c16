/**
 * The immediate `Publish` (realtime/sink.ts) and the only code that emits realtime events.
 * Typed against the hub event maps of `shared/src/events.ts`; with the Redis adapter installed,
 * emits and room moves reach every node. Workers use it directly after their own commit.
 */
import type { Server } from 'socket.io'
import { NAMESPACES, rooms, type NamespaceName } from '@flagwave/shared/events'
import type { ArgsOf, EventOf, Publish } from './sink.js'

export class Realtime implements Publish {
  private io: Server | null = null

  attach(io: Server): void {
    this.io = io
  }

  get server(): Server | null {
    return this.io
  }

  publish<N extends NamespaceName, E extends EventOf<N>>(namespace: N, room: string, event: E, ...args: ArgsOf<N, E>): void {
    if (!this.io) return
    const target = this.io.of(NAMESPACES[namespace]).to(room) as unknown as { emit: (event: string, ...args: unknown[]) => void }
    target.emit(event, ...(args as unknown[]))
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

  /** Drop every socket of a user on every namespace and node (bans, role changes, deletion). */
  disconnectUser(userId: string): void {
    if (!this.io) return
    for (const ns of Object.values(NAMESPACES)) this.io.of(ns).in(rooms.user(userId)).disconnectSockets(true)
  }
}
