/**
 * The cells a staged reveal names (docs/scoring.md#staged-reveal): the board's challenge titles,
 * and how a step's opened cells read ("web ✓ solved", "misc ✗ not solved").
 */
import type { RevealStep } from '@flagwave/shared/schemas/replay'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { t } from '../i18n'

/** Challenge id → title of a board's challenges. */
export const challengeTitles = (board: ScoreboardModel | null): Map<number, string> =>
  new Map(Object.values(board?.challenges ?? {}).flatMap((list) => (list ?? []).map((c) => [c.id, c.title] as const)))

export function openedCellsText(step: RevealStep, board: ScoreboardModel | null): string {
  const titles = challengeTitles(board)
  return step.challenges.map((id) => `${titles.get(id) ?? `#${id}`} ${step.solved.includes(id) ? `✓ ${t('已解出')}` : `✗ ${t('未解出')}`}`).join(' · ')
}
