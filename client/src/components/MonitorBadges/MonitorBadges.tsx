/** Badges of the monitor screens: a submission's AnswerResult and a game event's EventType. */
import { Badge, type BadgeProps } from '@mantine/core'
import { IconBug, IconCheck, IconFlag, IconHourglass, IconInfoCircle, IconPlayerPlay, IconPlayerStop, IconQuestionMark, IconX } from '@tabler/icons-react'
import { answerResultText, type AnswerResult, type EventType } from '@flagwave/shared/enums'
import { t } from '../../i18n'

const ANSWER_META: Record<AnswerResult, { color: string; icon: typeof IconCheck }> = {
  FlagSubmitted: { color: 'gray', icon: IconHourglass },
  Accepted: { color: 'brand', icon: IconCheck },
  WrongAnswer: { color: 'orange', icon: IconX },
  NotFound: { color: 'yellow', icon: IconQuestionMark },
  CheatDetected: { color: 'alert', icon: IconBug },
}

export function AnswerResultBadge({ status, ...props }: { status: AnswerResult } & BadgeProps) {
  const meta = ANSWER_META[status]
  const Icon = meta.icon
  return (
    <Badge color={meta.color} variant={status === 'CheatDetected' ? 'filled' : 'light'} leftSection={<Icon size={12} />} data-testid="answer-status" data-status={status} {...props}>
      {t(answerResultText[status])}
    </Badge>
  )
}

export const EVENT_META: Record<EventType, { label: string; color: string; icon: typeof IconCheck }> = {
  Normal: { label: t('普通事件'), color: 'gray', icon: IconInfoCircle },
  ContainerStart: { label: t('启动容器'), color: 'blue', icon: IconPlayerPlay },
  ContainerDestroy: { label: t('销毁容器'), color: 'cyan', icon: IconPlayerStop },
  FlagSubmit: { label: t('提交答案'), color: 'brand', icon: IconFlag },
  CheatDetected: { label: t('作弊检测'), color: 'alert', icon: IconBug },
}

/** A FlagSubmit event says `[答案正确]` or `[答案错误]` (docs/compatibility.md#game-notice-and-event-shapes): colour it accordingly. */
function eventColor(type: EventType, content: string): string {
  if (type === 'FlagSubmit' && content.startsWith(`[${answerResultText.WrongAnswer}]`)) return 'orange'
  return EVENT_META[type].color
}

export function EventTypeBadge({ type, content = '', ...props }: { type: EventType; content?: string } & BadgeProps) {
  const meta = EVENT_META[type]
  const Icon = meta.icon
  return (
    <Badge color={eventColor(type, content)} variant={type === 'CheatDetected' ? 'filled' : 'light'} leftSection={<Icon size={12} />} data-testid="event-type" data-type={type} {...props}>
      {meta.label}
    </Badge>
  )
}
