/**
 * Which system notices a reader sees (docs/scoring.md#divisions-and-notices): a NewChallenge or
 * NewHint notice names a challenge, and a division that may not view that challenge must not learn
 * its title from the notice list or its push. Staff and teams without a division see every notice;
 * anyone else who is not in the game (visitors, the big screen) sees the notices of challenges at
 * least one division may view, as the anonymous scoreboard lists them.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { roleRank, type Role } from '@flagwave/shared/enums'
import { DivisionPermissions, type DivisionRules } from '@flagwave/shared/divisions'
import { gameDivisions, type DivisionRecord } from '../divisions/divisions.js'

/** A reader's view: every notice, the public's, or one division's. */
export type NoticeView = 'all' | 'public' | { division: number }

const MONITOR_RANK = roleRank('Monitor')

/**
 * The view of a reader from their role and their registration's division key (`undefined`: not
 * registered in the game; `null`: a team without a division). One rule for the route and its hot read.
 */
export function noticeViewOf(role: Role | null, division: number | null | undefined): NoticeView {
  if (role !== null && roleRank(role) >= MONITOR_RANK) return 'all'
  if (division === undefined) return 'public'
  return division === null ? 'all' : { division }
}

/** The cache key part of a view. */
export const noticeViewKey = (view: NoticeView): string => (typeof view === 'string' ? view : `d${view.division}`)

/** Whether a reader with this view may see what a notice about `challengeId` says (null: no challenge named). */
function mayRead(view: NoticeView, challengeId: number | null, divisions: readonly DivisionRecord[], permissions: DivisionPermissions): boolean {
  if (challengeId === null || view === 'all' || divisions.length === 0) return true
  if (view === 'public') return divisions.some((d) => permissions.may(d.id, 'ViewChallenge', challengeId))
  return permissions.may(view.division, 'ViewChallenge', challengeId)
}

type Filtered = Map<string, readonly { challengeId: number | null }[]>

/**
 * Filtered lists, kept per cached list and division set (both are replaced, never changed, when
 * what they hold changes), so that a view's list stays one object and its page's JSON is
 * serialised once (presenters/notices.ts).
 */
const filtered = new WeakMap<object, WeakMap<object, Filtered>>()

/** The notices of a game a reader with this view sees, in the list's order. */
export async function visibleNotices<T extends { challengeId: number | null }>(em: EntityManager, gameId: number, view: NoticeView, list: readonly T[]): Promise<readonly T[]> {
  if (view === 'all' || list.every((n) => n.challengeId === null)) return list
  const divisions = await gameDivisions(em, gameId)
  if (divisions.length === 0) return list
  let byDivisions = filtered.get(list)
  if (!byDivisions) filtered.set(list, (byDivisions = new WeakMap()))
  let byView = byDivisions.get(divisions)
  if (!byView) byDivisions.set(divisions, (byView = new Map()))
  const key = noticeViewKey(view)
  let out = byView.get(key) as readonly T[] | undefined
  if (!out) {
    const permissions = new DivisionPermissions(divisions)
    out = list.filter((n) => mayRead(view, n.challengeId, divisions, permissions))
    byView.set(key, out)
  }
  return out
}

/**
 * Who a pushed notice about `challengeId` may reach: `everyone` when every division may view the
 * challenge (the game room), else the divisions that may (their teams' rooms; teams without a
 * division may see everything).
 */
export function noticeAudience(divisions: readonly DivisionRules[], challengeId: number | null): 'everyone' | { divisions: number[] } {
  if (challengeId === null) return 'everyone'
  const permissions = new DivisionPermissions(divisions)
  const allowed = divisions.filter((d) => permissions.may(d.id, 'ViewChallenge', challengeId)).map((d) => d.id)
  return allowed.length === divisions.length ? 'everyone' : { divisions: allowed }
}
