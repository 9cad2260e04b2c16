/**
 * A team's cells on the big screen during a staged reveal (docs/scoring.md#staged-reveal), as the
 * ICPC resolver shows them: its pending cells — submitted to after the freeze, right or wrong, so
 * nothing tells which will turn — and, on the team just revealed, the cell that opened: solved or
 * not solved.
 */
import type { RevealStep } from '@flagwave/shared/schemas/replay'
import classes from './BigScreen.module.css'
import { t } from '../../i18n'

interface RevealCellsProps {
  /** The team's pending cells, in the order they will open. */
  pending: readonly number[]
  /** The step that just opened one of the team's cells (null: none did). */
  opened: RevealStep | null
  /** Challenge id → title, from the board. */
  titles: ReadonlyMap<number, string>
}

export function RevealCells({ pending, opened, titles }: RevealCellsProps) {
  return (
    <span className={classes.revealCells}>
      {opened?.challenges.map((id) => {
        const solved = opened.solved.includes(id)
        return (
          <span key={id} className={classes.revealCell} data-testid="bigscreen-opened-cell" data-challenge-id={id} data-state={solved ? 'solved' : 'unsolved'} title={solved ? t('已解出') : t('未解出')}>
            {solved ? '✓' : '✗'} {titles.get(id)}
          </span>
        )
      })}
      {pending.length > 0 && (
        <span data-testid="bigscreen-pending" data-count={pending.length}>
          {pending.map((id) => (
            <span key={id} className={classes.revealCell} data-testid="bigscreen-pending-cell" data-challenge-id={id} data-state="pending" title={t('待揭晓')}>
              ? {titles.get(id)}
            </span>
          ))}
        </span>
      )}
    </span>
  )
}
