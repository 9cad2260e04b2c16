/**
 * Rules of joining, leaving and reviewing a game (docs/compatibility.md#group-game-reading-and-joining, #group-admin). The checks
 * that need only the game and the request live here; the handlers' order is the contract's.
 */
import type { ParticipationStatus } from '@flagwave/shared/enums'
import { hasPermission } from '@flagwave/shared/divisions'
import type { Game } from '../../entities/Game.js'
import { badRequest, gameEnded } from '../../lib/errors.js'
import { isEnded, isRunning } from '../play/gate.js'
import { NO_SUCH_DIVISION, type DivisionRecord } from '../divisions/divisions.js'

const WRONG_INVITE_CODE = '比赛邀请码错误'
const INVALID_ORGANIZATION = '无效的参赛单位'
const DIVISION_CLOSED = '该分组不允许报名'
export const TEAM_NOT_FOUND = '队伍未找到'
export const NOT_TEAM_MEMBER = '您不是此队伍的队员'
export const ALREADY_REGISTERED = '您已经在其他队伍报名参赛'
export const MEMBER_LIMIT_REACHED = '队伍参与人数超过比赛限制'
export const CANNOT_LEAVE_UNJOINED = '无法退出未报名的比赛'
const CANNOT_LEAVE_ACCEPTED = '审核通过后无法退出比赛'
export const PARTICIPATION_NOT_FOUND = '参与状态未找到'

/** What a join names of a division: GZ::CTF 1.7's id, or 1.0's `division` / v0.17.6's `organization` name. */
export interface JoinTarget {
  divisionId: number | null
  name: string | null
}

/**
 * The game-level join checks, in v0.17.6's order: ended (unless practice), invite code, division
 * (organization), then the division's JoinGame permission (docs/scoring.md#divisions). A division
 * with its own invite code takes that code instead of the game's. A game without divisions ignores
 * a name (as v0.17.6 did without organizations) and refuses an id.
 */
export function joinDivision(game: Game, divisions: readonly DivisionRecord[], target: JoinTarget, inviteCode: string | null, now = new Date()): DivisionRecord | null {
  if (!game.practiceMode && isEnded(game, now)) throw gameEnded()
  let division: DivisionRecord | null = null
  let unknown: string | null = null
  if (target.divisionId !== null) {
    division = divisions.find((d) => d.id === target.divisionId) ?? null
    if (!division) unknown = NO_SUCH_DIVISION
  } else if (divisions.length > 0) {
    division = divisions.find((d) => d.name === target.name) ?? null
    if (!division) unknown = INVALID_ORGANIZATION
  }
  const code = division?.inviteCode || game.inviteCode
  if (code && code !== inviteCode) throw badRequest(WRONG_INVITE_CODE)
  if (unknown) throw badRequest(unknown)
  if (division && !hasPermission(division.defaultPermissions, 'JoinGame')) throw badRequest(DIVISION_CLOSED)
  return division
}

/**
 * GZ::CTF 1.7: a join is accepted at once when the game accepts without review, or when its
 * division does not require review.
 */
export const joinsWithoutReview = (game: Pick<Game, 'acceptWithoutReview'>, division: DivisionRecord | null): boolean =>
  game.acceptWithoutReview || (division !== null && !hasPermission(division.defaultPermissions, 'RequireReview'))

/** A registration blocks another join unless its participation was rejected. */
export const blocksJoin = (status: ParticipationStatus): boolean => status !== 'Rejected'

/** Only pending or rejected registrations may be withdrawn. */
export function assertCanLeave(status: ParticipationStatus): void {
  if (status !== 'Pending' && status !== 'Rejected') throw badRequest(CANNOT_LEAVE_ACCEPTED)
}

/**
 * Whether a status change alters the scoreboard: an acceptance (also of a suspended team), a
 * suspension while the game runs, and any change that takes an accepted team off the board.
 */
export function statusChangeRefreshesBoard(game: Pick<Game, 'start' | 'end'>, from: ParticipationStatus, to: ParticipationStatus, now = new Date()): boolean {
  if (to === 'Accepted') return true
  if (to === 'Suspended' && isRunning(game, now)) return true
  return from === 'Accepted'
}
