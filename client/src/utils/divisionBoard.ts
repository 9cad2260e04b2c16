/**
 * One division's view of a scoreboard (docs/scoring.md#divisions), for the scoreboard's division
 * tabs and the big screen: its rows (or, overall, the rows ranked overall), its top-10 timeline and
 * the challenges it may view.
 */
import { boardPermissions } from '@flagwave/shared/divisions'
import type { ChallengesByTag, ScoreboardItem, ScoreboardModel, TopTimeLine } from '@flagwave/shared/schemas/scoreboard'

/** The rows of a division in rank order; overall (null) the teams ranked overall (rank 0: a division not ranked overall). */
export const divisionRows = (items: ScoreboardItem[], divisionId: number | null): ScoreboardItem[] =>
  divisionId === null ? items.filter((i) => i.rank > 0) : items.filter((i) => i.divisionId === divisionId)

/** The top-10 timeline of a division (overall: division id 0). */
export const divisionTimeline = (scoreboard: ScoreboardModel, divisionId: number | null): TopTimeLine[] =>
  scoreboard.timelines.find((l) => l.divisionId === (divisionId ?? 0))?.teams ?? []

/** The board with only the challenges the division may view (its columns). */
export function boardOfDivision(scoreboard: ScoreboardModel, divisionId: number): ScoreboardModel {
  const permissions = boardPermissions(scoreboard.divisions)
  const challenges: ChallengesByTag = {}
  for (const [tag, list] of Object.entries(scoreboard.challenges) as [keyof ChallengesByTag, ChallengesByTag[keyof ChallengesByTag]][]) {
    const visible = (list ?? []).filter((c) => permissions.may(divisionId, 'ViewChallenge', c.id))
    if (visible.length > 0) challenges[tag] = visible
  }
  return { ...scoreboard, challenges }
}
