/**
 * The big screen's line during a staged reveal (docs/scoring.md#staged-reveal): the step, the
 * team just revealed with the cell it opened (solved or not solved), its move and new score, its
 * bloods, and the keys that drive it.
 */
import type { RevealState } from '@flagwave/shared/schemas/replay'
import classes from './BigScreen.module.css'
import { t } from '../../i18n'
import { openedCellsText } from '../../utils/revealCells'

export function RevealBar({ reveal }: { reveal: RevealState }) {
  const last = reveal.last
  return (
    <div className={classes.revealBar} data-testid="bigscreen-reveal" data-step={reveal.step} data-steps={reveal.steps} data-auto={reveal.autoMs ?? undefined}>
      <span className={classes.revealStep}>
        {t('揭晓')} {reveal.step} / {reveal.steps}
      </span>
      {last ? (
        <span data-testid="bigscreen-reveal-last">
          {last.name ?? t('其他队伍')}
          {last.challenges.length > 0 && <span data-testid="bigscreen-reveal-cell" data-solved={last.solved.length > 0}> · {openedCellsText(last, reveal.board)}</span>} · #{last.fromPlace} → #{last.toPlace} · {last.fromScore} → <b>{last.toScore}</b>
          {last.bloods.length > 0 && <span className={classes.revealBlood}> · {t('血')} ×{last.bloods.length}</span>}
        </span>
      ) : (
        <span>{t('冻结时的积分榜')}</span>
      )}
      <span className={classes.revealKeys}>{t('→ 下一步 · ← 上一步 · A 自动播放 · 1–5 速度')}</span>
    </div>
  )
}
