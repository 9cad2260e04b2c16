/**
 * Live team membership (DESIGN §5): members of a team listen in the user-hub room
 * `Team_{id}`; after a change has committed, `ReceivedTeamUpdate` goes to that room. Socket
 * room membership follows the team's: a user who joins has their open sockets join the room,
 * one who leaves or is kicked has them leave it (and hears the change in their own user room).
 */
import { rooms } from '@flagwave/shared/events'
import type { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import type { Realtime } from '../../realtime/publish.js'
import { envelope } from '../../realtime/publish.js'
import type { Outbox } from '../../realtime/outbox.js'

export interface TeamChange {
  teamId: number
  /** The team after the change; null when it was deleted. */
  team: TeamInfoModel | null
  /** Users who became members (their sockets join the room before the event goes out). */
  joined?: string[]
  /** Users who are no longer members (their sockets leave the room; they get the event in their own room). */
  left?: string[]
}

/** Call after the change committed: room membership moves now, the event leaves with the outbox. */
export function announceTeamChange(realtime: Realtime, outbox: Outbox, change: TeamChange): void {
  const room = rooms.teamMembers(change.teamId)
  const update = { teamId: change.teamId, team: change.team }
  void realtime.joinUsers('user', change.joined ?? [], room)
  realtime.leaveUsers('user', change.left ?? [], room)
  if (change.team === null) realtime.closeRoom(room)
  else outbox.add(envelope('user', room, 'ReceivedTeamUpdate', update))
  for (const userId of change.left ?? []) outbox.add(envelope('user', rooms.user(userId), 'ReceivedTeamUpdate', update))
}
