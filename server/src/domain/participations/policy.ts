/**
 * Rules of joining, leaving and reviewing a game (docs/compatibility.md#group-game-reading-and-joining, #group-admin). The checks
 * that need only the game and the request live here; the handlers' order is the contract's.
 */
import type { ParticipationStatus } from '@flagwave/shared/enums'
import type { GameJoinModel } from '@flagwave/shared/schemas/games'
import type { Game } from '../../entities/Game.js'
import { badRequest, gameEnded } from '../../lib/errors.js'
import { isEnded, isRunning } from '../play/gate.js'

const WRONG_INVITE_CODE = '比赛邀请码错误'
const INVALID_ORGANIZATION = '无效的参赛单位'
export const TEAM_NOT_FOUND = '队伍未找到'
export const NOT_TEAM_MEMBER = '您不是此队伍的队员'
export const ALREADY_REGISTERED = '您已经在其他队伍报名参赛'
export const MEMBER_LIMIT_REACHED = '队伍参与人数超过比赛限制'
export const CANNOT_LEAVE_UNJOINED = '无法退出未报名的比赛'
const CANNOT_LEAVE_ACCEPTED = '审核通过后无法退出比赛'
export const PARTICIPATION_NOT_FOUND = '参与状态未找到'
/** GZ::CTF 1.7's refusal of a division that does not exist (games have none yet, docs/compatibility.md#newer-gzctf-versions). */
export const DIVISION_NOT_FOUND = '分组不存在'

/** The game-level join checks, in order: ended (unless practice), invite code, organization. */
export function assertJoinable(game: Game, input: GameJoinModel, now = new Date()): void {
  if (!game.practiceMode && isEnded(game, now)) throw gameEnded()
  if (game.inviteCode && game.inviteCode !== input.inviteCode) throw badRequest(WRONG_INVITE_CODE)
  const organizations = game.organizations ?? []
  if (organizations.length > 0 && !organizations.some((o) => o === input.organization)) throw badRequest(INVALID_ORGANIZATION)
}

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
