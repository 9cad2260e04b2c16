/**
 * Live team membership (docs/realtime.md#room-moves): members of a team listen in the user-hub room
 * `Team_{id}`; after a change has committed, `ReceivedTeamUpdate` goes to that room. Socket
 * room membership follows the team's: a user who joins has their open sockets join the room,
 * one who leaves or is kicked has them leave it (and hears the change in their own user room),
 * and leave the team rooms of the games they played in for the team.
 */
import { rooms } from '@flagwave/shared/events'
import type { Team } from '../../entities/Team.js'
import type { Publish } from '../../realtime/sink.js'
import { presentTeamInfo } from '../../presenters/teams.js'

/** A participation a former member played through: its game's team room is `Game_{gameId}_Team_{participationId}`. */
export interface PlayedIn {
  gameId: number
  participationId: number
}

export interface TeamChange {
  teamId: number
  /** The team after the change, its members loaded; null when it was deleted. */
  team: Team | null
  /** Users who became members (their sockets join the room before the event goes out). */
  joined?: string[]
  /** Users who are no longer members (their sockets leave the room; they get the event in their own room). */
  left?: string[]
  /** Participations the users in `left` no longer play through: their sockets leave those team rooms. */
  playedIn?: PlayedIn[]
}

/** Room membership moves and the event goes out, both after the change committed. */
export function announceTeamChange(events: Publish, change: TeamChange): void {
  const room = rooms.teamMembers(change.teamId)
  const update = { teamId: change.teamId, team: change.team && presentTeamInfo(change.team) }
  events.joinUsers('user', change.joined ?? [], room)
  events.leaveUsers('user', change.left ?? [], room)
  for (const p of change.playedIn ?? []) events.leaveUsers('user', change.left ?? [], rooms.team(p.gameId, p.participationId))
  if (change.team === null) events.closeRoom(room)
  else events.publish('user', room, 'ReceivedTeamUpdate', update)
  for (const userId of change.left ?? []) events.publish('user', rooms.user(userId), 'ReceivedTeamUpdate', update)
}
