/**
 * What a scoreboard screen says about the freeze (docs/scoring.md#freeze): the public board is
 * frozen since its freeze time, or — for staff reading `view=live` — this is the live board,
 * which players do not see.
 */
import { Alert } from '@mantine/core'
import { IconEye, IconSnowflake } from '@tabler/icons-react'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { formatTime } from '../GameTime/GameTime'
import { t } from '../../i18n'

export function FrozenBanner({ scoreboard, size = 'sm' }: { scoreboard: Pick<ScoreboardModel, 'frozen' | 'freezeTime' | 'live'>; size?: 'sm' | 'lg' }) {
  if (scoreboard.live) {
    return (
      <Alert color="orange" variant="filled" icon={<IconEye size={18} />} title={t('实时积分榜（仅管理员与监视者可见）')} data-testid="scoreboard-live-banner">
        {t('积分榜已对选手冻结：选手与公众看到的是冻结时的积分榜，与此处不同。')}
      </Alert>
    )
  }
  if (!scoreboard.frozen) return null
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconSnowflake size={size === 'lg' ? 28 : 18} />}
      title={t('积分榜已冻结')}
      data-testid="scoreboard-frozen-banner"
      styles={size === 'lg' ? { title: { fontSize: '1.5rem' }, message: { fontSize: '1.1rem' } } : undefined}
    >
      {scoreboard.freezeTime ? t('显示的是 {{time}} 冻结时的排名，冻结后的解题将在揭晓时公布。', { time: formatTime(scoreboard.freezeTime, 'YYYY-MM-DD HH:mm:ss') }) : null}
    </Alert>
  )
}
