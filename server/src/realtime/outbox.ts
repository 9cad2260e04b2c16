/**
 * The request's `Publish`: realtime events and room moves raised while handling a request are
 * held, in order, and carried out only after the response succeeded, i.e. after the database
 * committed, so a client never hears of a change it cannot then read back (docs/realtime.md).
 */
import type { NamespaceName } from '@flagwave/shared/events'
import type { Realtime } from './publish.js'
import type { ArgsOf, EventOf, Publish } from './sink.js'

type Deferred = (realtime: Realtime) => void | Promise<void>

export class Outbox implements Publish {
  private readonly pending: Deferred[] = []

  publish<N extends NamespaceName, E extends EventOf<N>>(namespace: N, room: string, event: E, ...args: ArgsOf<N, E>): void {
    this.pending.push((realtime) => realtime.publish(namespace, room, event, ...args))
  }

  joinUsers(namespace: NamespaceName, userIds: string[], room: string, within?: string): void {
    this.pending.push((realtime) => realtime.joinUsers(namespace, userIds, room, within))
  }

  leaveUsers(namespace: NamespaceName, userIds: string[], room: string): void {
    this.pending.push((realtime) => realtime.leaveUsers(namespace, userIds, room))
  }

  closeRoom(room: string): void {
    this.pending.push((realtime) => realtime.closeRoom(room))
  }

  disconnectUser(userId: string): void {
    this.pending.push((realtime) => realtime.disconnectUser(userId))
  }

  recheckGame(gameId: number): void {
    this.pending.push((realtime) => realtime.recheckGame(gameId))
  }

  /** Carry out what was held, in order; a join completes before the events after it leave. */
  async flush(realtime: Realtime): Promise<void> {
    for (const action of this.pending.splice(0)) await action(realtime)
  }

  /** Forget what was held (the request failed, nothing committed). */
  discard(): void {
    this.pending.length = 0
  }
}
