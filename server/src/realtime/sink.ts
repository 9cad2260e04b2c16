/**
 * The one sink of realtime events (docs/realtime.md). Domain commands publish through a
 * `Publish` and never see Socket.IO: inside a request it is the request's `Outbox`, which holds
 * everything until the response succeeded (so after the commit); workers, which commit on their
 * own, get the immediate `Realtime`. Room moves and disconnections go through the same sink so
 * they, too, happen only after the change they follow has committed.
 */
import type { HubEvents, NamespaceName } from '@flagwave/shared/events'

export type EventOf<N extends NamespaceName> = keyof HubEvents[N] & string
export type ArgsOf<N extends NamespaceName, E extends EventOf<N>> = HubEvents[N][E] extends (...args: infer A) => void ? A : never

export interface Publish {
  /** Send `event` to every socket in `room` of the hub `namespace`, on every node. */
  publish<N extends NamespaceName, E extends EventOf<N>>(namespace: N, room: string, event: E, ...args: ArgsOf<N, E>): void
  /**
   * Make the sockets of `userIds` on `namespace` join `room`; with `within`, only those already
   * in that room (e.g. the user-hub sockets watching one game). Events published after this
   * call reach them.
   */
  joinUsers(namespace: NamespaceName, userIds: string[], room: string, within?: string): void
  /** Make the sockets of `userIds` on `namespace` leave `room`. */
  leaveUsers(namespace: NamespaceName, userIds: string[], room: string): void
  /** Empty a user-hub room (a deleted team). */
  closeRoom(room: string): void
  /** Drop every socket of a user on every hub (bans, role changes, deletion). */
  disconnectUser(userId: string): void
  /**
   * Re-decide every socket watching a game whose rights changed (its start moved, it was
   * deleted): those that may no longer listen are refused, team rooms follow
   * (docs/realtime.md#re-checks).
   */
  recheckGame(gameId: number): void
}

/**
 * The immediate sink (`Realtime`), for code that commits on its own. It also tells how far this
 * node's sockets are behind, so pushes to large rooms can be paced (domain/scoreboard/pacing.ts).
 */
export interface ImmediatePublish extends Publish {
  /** Whether at least a tenth of this node's sockets in `room` have not yet written out the previous push. */
  backlogged(namespace: NamespaceName, room: string): boolean
  /** Run `write`, several publishes whose frames leave each socket together (one system call, realtime/fanOut.ts). */
  together(write: () => void, name?: string): void
  /** Run `write`, several publishes (measured as one push, `name`) that leave each socket in one write and reach the other nodes in one message (docs/realtime.md#relay). */
  relayed(name: string, write: () => void): void
}
