/**
 * Reviewing a participation (docs/compatibility.md#group-admin). Any status may be set. Accepting locks the team
 * and creates the instances of every enabled challenge (their flags come on first view, see
 * play/instances.ts). After the commit: the scoreboard is rebuilt when the change alters it, the
 * registered members' open user-hub sockets join (or leave) the team's private room, and each of
 * them hears the new status in their own room (through the scope's sink, so in a request the move
 * and the push happen once the response succeeded).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { LockMode } from '@mikro-orm/core'
import { participationStatusText, type ParticipationStatus } from '@flagwave/shared/enums'
import { rooms, type ParticipationUpdate } from '@flagwave/shared/events'
import { Participation } from '../../entities/Participation.js'
import { Registration } from '../../entities/Registration.js'
import { Team } from '../../entities/Team.js'
import { Game } from '../../entities/Game.js'
import { notFound } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { ensureInstances } from '../play/instances.js'
import { requestScoreboardRebuild } from '../scoreboard/hooks.js'
import { PARTICIPATION_NOT_FOUND, statusChangeRefreshesBoard } from './policy.js'
import { Division } from '../../entities/Division.js'
import { NO_SUCH_DIVISION } from '../divisions/divisions.js'
import { rebuildScoreboardAfterEdit } from '../games/rebuild.js'
import { badRequest } from '../../lib/errors.js'

/** What changed, for the effects that follow the commit. */
export interface StatusChange {
  participationId: number
  gameId: number
  gameTitle: string
  teamName: string
  from: ParticipationStatus
  to: ParticipationStatus
  /** The game's window, to tell whether a suspension happened while it ran. */
  game: Pick<Game, 'start' | 'end'>
}

/** Inside a transaction: set the status and apply what an acceptance implies. */
export async function applyStatus(em: EntityManager, participation: Participation, team: Team, game: Game, to: ParticipationStatus): Promise<StatusChange> {
  const from = participation.status
  participation.status = to
  if (to === 'Accepted') {
    team.locked = true
    await em.flush()
    await ensureInstances(em, participation.id, game.id)
  }
  return { participationId: participation.id, gameId: game.id, gameTitle: game.title, teamName: team.name, from, to, game: { start: game.start, end: game.end } }
}

/**
 * After the commit: scoreboard rebuild, team-room membership of the members' sockets, and the new
 * status pushed to each registered member's own room (docs/realtime.md#room-moves), after the room
 * move so that a member who refetches their board on it is already in the team room.
 */
export async function afterStatusChange(scope: Scope, change: StatusChange): Promise<void> {
  if (statusChangeRefreshesBoard(change.game, change.from, change.to)) await requestScoreboardRebuild(scope.services, change.gameId)
  if (change.from === change.to) return
  const members = await registeredMembers(scope.em, change.participationId)
  const wasIn = change.from === 'Accepted'
  const isIn = change.to === 'Accepted'
  const room = rooms.team(change.gameId, change.participationId)
  if (isIn && !wasIn) scope.events.joinUsers('user', members, room, rooms.game(change.gameId))
  if (wasIn && !isIn) scope.events.leaveUsers('user', members, room)
  const update: ParticipationUpdate = { gameId: change.gameId, participationId: change.participationId, status: change.to }
  for (const member of members) scope.events.publish('user', rooms.user(member), 'ReceivedParticipationUpdate', update)
}

/** User ids registered through a participation. */
async function registeredMembers(em: EntityManager, participationId: number): Promise<string[]> {
  const rows = await em.fork().find(Registration, { participation: participationId }, { fields: ['user'] })
  return rows.map((r) => (r.user as { id: string }).id)
}

/** `PUT /api/admin/participation/{id}/{status}`. */
export async function setParticipationStatus(scope: Scope, actor: Actor, participationId: number, status: ParticipationStatus): Promise<StatusChange> {
  const change = await scope.em.transactional(async (tem) => {
    const found = await tem.findOne(Participation, { id: participationId })
    if (!found) throw notFound(PARTICIPATION_NOT_FOUND)
    // The team row before the participation row, the order a join takes (docs/architecture.md#row-locks).
    const team = await tem.findOneOrFail(Team, { id: (found.team as Team).id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    const participation = await tem.findOneOrFail(Participation, { id: participationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    const game = await tem.findOneOrFail(Game, { id: (participation.game as Game).id })
    return applyStatus(tem, participation, team, game, status)
  })
  await afterStatusChange(scope, change)
  await scope.services.audit.success(actor, `参赛审核：[${change.teamName}] 在比赛 [${change.gameTitle}] 中的状态 ${participationStatusText[change.from]} → ${participationStatusText[change.to]}`)
  return change
}

/** A participation moved to another division of its game (docs/scoring.md#divisions). */
async function moveParticipation(scope: Scope, actor: Actor, participationId: number, divisionId: number): Promise<void> {
  const moved = await scope.em.transactional(async (tem) => {
    const participation = await tem.findOne(Participation, { id: participationId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    if (!participation) throw notFound(PARTICIPATION_NOT_FOUND)
    const team = await tem.findOneOrFail(Team, { id: (participation.team as Team).id })
    const gameId = (participation.game as Game).id
    const division = await tem.findOne(Division, { id: divisionId, game: gameId })
    if (!division) throw badRequest(NO_SUCH_DIVISION)
    participation.division = division
    await tem.flush()
    return { gameId, teamName: team.name, division: division.name }
  })
  await rebuildScoreboardAfterEdit(scope, moved.gameId)
  await scope.services.audit.success(actor, `参赛审核：[${moved.teamName}] 在比赛 #${moved.gameId} 中移至分组 ${moved.division}`)
}

/**
 * `PUT /api/admin/participation/{id}` (GZ::CTF 1.7): `{status?, divisionId?}` — the move first,
 * then the review; an empty edit still answers 404 for a participation that does not exist.
 */
export async function editParticipation(scope: Scope, actor: Actor, participationId: number, edit: { status: ParticipationStatus | null; divisionId: number | null }): Promise<void> {
  if (edit.divisionId !== null) await moveParticipation(scope, actor, participationId, edit.divisionId)
  if (edit.status !== null) await setParticipationStatus(scope, actor, participationId, edit.status)
  else if (edit.divisionId === null && (await scope.em.count(Participation, { id: participationId })) === 0) throw notFound(PARTICIPATION_NOT_FOUND)
}
