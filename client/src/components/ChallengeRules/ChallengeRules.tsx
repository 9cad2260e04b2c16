/**
 * What players see of the challenge rules (docs/challenge-rules.md): a challenge's deadline with
 * its countdown (on the board's card and in the challenge), and the team's remaining attempts
 * beside the flag input.
 */
import { Badge, Text, Tooltip, type BadgeProps } from '@mantine/core'
import { IconClockHour4, IconTargetArrow } from '@tabler/icons-react'
import { formatDuration, formatTime, useNow } from '../GameTime/GameTime'
import { t } from '../../i18n'

/** Whether a deadline (wire date or null) has passed. */
export const isPastDeadline = (deadline: string | null | undefined, now = Date.now()): boolean => !!deadline && now > Date.parse(deadline)

/** "截止 …" counting down, "已截止" after it; nothing without a deadline. */
export function DeadlineBadge({ deadline, ...props }: { deadline: string | null | undefined } & BadgeProps) {
  const now = useNow()
  if (!deadline) return null
  const passed = isPastDeadline(deadline, now)
  return (
    <Tooltip label={t('截止时间：{{time}}', { time: formatTime(deadline) })} withArrow>
      <Badge
        variant="light"
        color={passed ? 'gray' : Date.parse(deadline) - now < 3600_000 ? 'alert' : 'yellow'}
        leftSection={<IconClockHour4 size={12} />}
        data-testid="challenge-deadline"
        data-passed={passed ? 'true' : 'false'}
        {...props}
      >
        {passed ? t('已截止') : t('距截止 {{v0}}', { v0: formatDuration(Date.parse(deadline) - now) })}
      </Badge>
    </Tooltip>
  )
}

/** The team's attempts left (`limit` 0 = unlimited: nothing shown). */
export function AttemptsLeft({ limit, used }: { limit: number; used: number }) {
  if (limit <= 0) return null
  const left = Math.max(0, limit - used)
  return (
    <Text size="sm" c={left === 0 ? 'alert' : 'dimmed'} style={{ whiteSpace: 'nowrap', alignSelf: 'center' }} data-testid="attempts-left" data-left={left}>
      <IconTargetArrow size={14} style={{ verticalAlign: -2, marginRight: 4 }} />
      {t('剩余 {{left}}/{{limit}} 次', { left, limit })}
    </Text>
  )
}
