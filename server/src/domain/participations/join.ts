/**
 * Joining and leaving a game (docs/compatibility.md#group-game-reading-and-joining). Each runs in one transaction, so a
 * refused request changes nothing. A join locks the team row, then the participation row: a kick
 * or leave of the joining member waits for it (and removes the new registration) or comes
 * first (and the join is refused), and concurrent joins respect the member limit. Every command
 * that locks both takes the team first (docs/architecture.md#row-locks).
 */
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'
import { ForeignKeyConstraintViolationException, LockMode, UniqueConstraintViolationException } from '@mikro-orm/core'
import { rooms } from '@flagwave/shared/events'
import { Team } from '../../entities/Team.js'
import { Participation } from '../../entities/Participation.js'
import { Registration } from '../../entities/Registration.js'
import type { LocalFile } from '../../entities/LocalFile.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { teamToken } from '../games/keys.js'
import { fileTransaction } from '../files/files.js'
import { findGame } from '../games/games.js'
import { lockTeam } from '../teams/teams.js'
import {
  ALREADY_REGISTERED,
  CANNOT_LEAVE_UNJOINED,
  MEMBER_LIMIT_REACHED,
  NOT_TEAM_MEMBER,
  TEAM_NOT_FOUND,
  assertCanLeave,
  blocksJoin,
  joinDivision,
  joinsWithoutReview,
  type JoinTarget,
} from './policy.js'
import { Division } from '../../entities/Division.js'
import { gameDivisions, NO_SUCH_DIVISION } from '../divisions/divisions.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { afterStatusChange, applyStatus, type StatusChange } from './review.js'

/** What a join asks for: the team, the division (docs/scoring.md#divisions) and the invite code. */
export interface JoinInput {
  teamId: number
  division: JoinTarget
  inviteCode: string | null
}

export async function joinGame(scope: Scope, actor: Actor, gameId: number, input: JoinInput): Promise<void> {
  const { em, services } = scope
  const user = actor.user
  const result = await em.transactional(async (tem) => {
    const game = await findGame(tem, gameId)
    const division = joinDivision(game, await gameDivisions(tem, game.id), input.division, input.inviteCode)

    // The team row first (as kicks and leaves do), so membership cannot change until this registration is in.
    const team = input.teamId > 0 ? await lockTeam(tem, input.teamId) : null
    if (!team) throw notFound(TEAM_NOT_FOUND)
    if (!team.members.getItems().some((m) => m.id === user.id)) throw badRequest(NOT_TEAM_MEMBER)

    const earlier = await tem.find(Registration, { user: user.id, game: game.id }, { populate: ['participation'] })
    if (earlier.some((r) => blocksJoin((r.participation as Participation).status))) throw badRequest(ALREADY_REGISTERED)
    if (earlier.length > 0) {
      tem.remove(earlier)
      await tem.flush()
    }

    await tem.execute(
      `insert into participations (game_id, team_id, status, token, created_at) values (?, ?, 'Pending', ?, now())
       on conflict (game_id, team_id) do nothing`,
      [game.id, team.id, teamToken(game, team.id, services.config.XOR_KEY)],
      'run',
    )
    await invalidateAfterCommit(tem, [tags.gameParticipations(game.id)])
    const participation = await tem.findOneOrFail(Participation, { game: game.id, team: team.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    if (game.teamMemberCountLimit > 0) {
      const registered = await tem.count(Registration, { participation: participation.id })
      if (registered >= game.teamMemberCountLimit) throw badRequest(MEMBER_LIMIT_REACHED)
    }

    tem.create(Registration, { user: user.id, game: game.id, participation })
    participation.division = division ? tem.getReference(Division, division.id) : null
    if (participation.status === 'Rejected') participation.status = 'Pending'
    let change: StatusChange | null = null
    if (joinsWithoutReview(game, division)) change = await applyStatus(tem, participation, team, game, 'Accepted')
    await tem.flush()
    return { change, participationId: participation.id, accepted: participation.status === 'Accepted', teamName: team.name, gameTitle: game.title }
  }).catch((err: unknown) => {
    // The same user joining twice at once: the (user, game) registration is unique.
    if (err instanceof UniqueConstraintViolationException) throw badRequest(ALREADY_REGISTERED)
    // The chosen division was deleted after it was read (a delete at the same moment, or another node's
    // cache not yet told): the foreign key refuses the row, and the division does not exist.
    if (err instanceof ForeignKeyConstraintViolationException) throw badRequest(NO_SUCH_DIVISION)
    throw err
  })

  if (result.change) await afterStatusChange(scope, result.change)
  // A member joining a team that is already accepted listens to its room from now on.
  if (result.accepted && (!result.change || result.change.from === 'Accepted')) {
    scope.events.joinUsers('user', [user.id], rooms.team(gameId, result.participationId), rooms.game(gameId))
  }
  await services.audit.success(actor, `[${result.teamName}] 成功报名了比赛 [${result.gameTitle}]`)
}

export async function leaveGame(scope: Scope, actor: Actor, gameId: number): Promise<void> {
  const { em, services } = scope
  const user = actor.user
  const result = await fileTransaction(em, services.storage, async (tem, files) => {
    const game = await findGame(tem, gameId)
    const registration = await tem.findOne(Registration, { user: user.id, game: game.id })
    if (!registration) throw badRequest(CANNOT_LEAVE_UNJOINED)
    const participation = await tem.findOneOrFail(Participation, { id: (registration.participation as Participation).id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    assertCanLeave(participation.status)
    const team = await tem.findOneOrFail(Team, { id: (participation.team as Team).id })

    tem.remove(registration)
    await tem.flush()
    const remaining = await tem.count(Registration, { participation: participation.id })
    if (remaining === 0) {
      await files.release((participation.writeup as LocalFile | null)?.hash)
      tem.remove(participation)
      await tem.flush()
    }
    return { teamName: team.name, gameTitle: game.title }
  })
  await services.audit.success(actor, `[${result.teamName}] 退出了比赛 [${result.gameTitle}]`)
}
