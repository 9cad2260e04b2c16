/**
 * The pushes of container changes, made after they committed: the team's `ReceivedContainerUpdate`
 * and, for a player's own start or destroy, the monitors' `ReceivedGameEvent`.
 */
import { rooms, type ContainerUpdate } from '@flagwave/shared/events'
import type { Container } from '../../entities/Container.js'
import type { GameEvent } from '../../entities/GameEvent.js'
import type { Publish } from '../../realtime/sink.js'
import { containerUpdate } from '../../presenters/containers.js'
import { presentGameEventBy } from '../../presenters/events.js'

/** Where a container belongs: the team's participation in a game, and the challenge. */
interface ContainerOwner {
  gameId: number
  participationId: number
  challengeId: number
}

/** `container` is null (or `reason` is 'destroyed') once it is gone. */
export function publishContainerUpdate(events: Publish, owner: ContainerOwner, container: Container | null, reason: ContainerUpdate['reason']): void {
  events.publish('user', rooms.team(owner.gameId, owner.participationId), 'ReceivedContainerUpdate', containerUpdate(owner.challengeId, container, reason))
}

/** A ContainerStart/ContainerDestroy event row just written, by the user and team named. */
export function publishContainerEvent(events: Publish, gameId: number, event: GameEvent, userName: string, teamName: string): void {
  events.publish('monitor', rooms.game(gameId), 'ReceivedGameEvent', presentGameEventBy(event, userName, teamName))
}
