/** Time helpers of the game screens: a ticking clock, the game phase and countdowns. */
import { useEffect, useState } from 'react'
import { Badge, Text, type BadgeProps, type TextProps } from '@mantine/core'
import dayjs from 'dayjs'
import { DATE_TIME_PATTERN, t } from '../../i18n'

/** The current time, re-rendered every `intervalMs` (one shared timer per component). */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}

export type GamePhase = 'upcoming' | 'running' | 'ended'

export function gamePhase(start: string | number, end: string | number, now = Date.now()): GamePhase {
  const s = typeof start === 'number' ? start : Date.parse(start)
  const e = typeof end === 'number' ? end : Date.parse(end)
  if (now < s) return 'upcoming'
  if (now <= e) return 'running'
  return 'ended'
}

const PHASE_META: Record<GamePhase, { label: string; color: string }> = {
  upcoming: { label: t('即将开始'), color: 'blue' },
  running: { label: t('进行中'), color: 'brand' },
  ended: { label: t('已结束'), color: 'gray' },
}

export function PhaseBadge({ phase, ...props }: { phase: GamePhase } & BadgeProps) {
  const meta = PHASE_META[phase]
  return (
    <Badge color={meta.color} variant={phase === 'running' ? 'filled' : 'light'} data-testid="game-phase" data-phase={phase} {...props}>
      {meta.label}
    </Badge>
  )
}

/** `3天 04:05:06` / `04:05:06` for a non-negative duration in ms. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const days = Math.floor(total / 86_400)
  const h = Math.floor((total % 86_400) / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const hms = [h, m, s].map((n) => String(n).padStart(2, '0')).join(':')
  return days > 0 ? t('{{days}}天 {{hms}}', { days, hms }) : hms
}

/** A moment in the interface language's usual form unless `pattern` asks for a fixed one (docs/architecture.md#languages). */
export const formatTime = (value: string | number, pattern = DATE_TIME_PATTERN): string => dayjs(value).format(pattern)

/** "距开始 …" / "距结束 …" / "已结束" for a game window. */
export function countdownText(start: string, end: string, now: number): string {
  const phase = gamePhase(start, end, now)
  if (phase === 'upcoming') return t('距开始 {{v0}}', { v0: formatDuration(Date.parse(start) - now) })
  if (phase === 'running') return t('距结束 {{v0}}', { v0: formatDuration(Date.parse(end) - now) })
  return t('比赛已结束')
}

export function Countdown({ start, end, ...props }: { start: string; end: string } & TextProps) {
  const now = useNow()
  return (
    <Text ff="monospace" data-testid="game-countdown" {...props}>
      {countdownText(start, end, now)}
    </Text>
  )
}
