/**
 * A game's schedule at a glance for its editors (docs/challenge-rules.md#timed-release): every
 * challenge opening and deadline in time order, what is still ahead with its countdown, what has
 * passed dimmed. Opening times of challenges waiting for them are the ones the scheduler acts on.
 */
import { Badge, Card, Group, Stack, Text, Timeline, Title } from '@mantine/core'
import { IconClockHour4, IconLockOpen } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import type { ChallengeInfoModel } from '@flagwave/shared/schemas/challenges'
import { formatDuration, formatTime, useNow } from '../GameTime/GameTime'
import { t } from '../../i18n'

interface Entry {
  kind: 'release' | 'deadline'
  at: number
  challenge: ChallengeInfoModel
}

/** The openings (of challenges waiting for them, or opened by them) and deadlines, in time order. */
function scheduleOf(challenges: readonly ChallengeInfoModel[]): Entry[] {
  const entries: Entry[] = []
  for (const c of challenges) {
    if (c.releaseTimeUtc) entries.push({ kind: 'release', at: Date.parse(c.releaseTimeUtc), challenge: c })
    if (c.deadlineUtc) entries.push({ kind: 'deadline', at: Date.parse(c.deadlineUtc), challenge: c })
  }
  return entries.sort((a, b) => a.at - b.at || a.challenge.id - b.challenge.id)
}

export function ChallengeSchedule({ gameId, challenges }: { gameId: number; challenges: readonly ChallengeInfoModel[] }) {
  const now = useNow()
  const entries = scheduleOf(challenges)
  if (entries.length === 0) return null
  const reached = entries.filter((e) => e.at <= now).length
  return (
    <Card withBorder radius="md" padding="sm" data-testid="challenge-schedule">
      <Stack gap="sm">
        <Title order={5}>{t('开放日程')}</Title>
        <Timeline active={reached - 1} bulletSize={22} lineWidth={2}>
          {entries.map((e) => {
            const ahead = e.at > now
            const label = e.kind === 'release' ? (ahead ? t('定时开放') : t('已开放')) : ahead ? t('截止提交') : t('已截止')
            return (
              <Timeline.Item
                key={`${e.kind}-${e.challenge.id}`}
                bullet={e.kind === 'release' ? <IconLockOpen size={12} /> : <IconClockHour4 size={12} />}
                data-testid="schedule-entry"
                data-kind={e.kind}
                data-challenge-id={e.challenge.id}
                data-ahead={ahead ? 'true' : 'false'}
                title={
                  <Group gap="xs">
                    <Text fw={600} size="sm" component={Link} to={`/admin/games/${gameId}/challenges/${e.challenge.id}`} style={{ color: 'inherit' }}>
                      {e.challenge.title}
                    </Text>
                    <Badge size="xs" variant="light" color={e.kind === 'release' ? 'brand' : 'yellow'}>
                      {label}
                    </Badge>
                  </Group>
                }
              >
                <Text size="xs" c="dimmed">
                  {formatTime(e.at)}
                  {ahead ? ` · ${t('还有 {{v0}}', { v0: formatDuration(e.at - now) })}` : ''}
                </Text>
              </Timeline.Item>
            )
          })}
        </Timeline>
      </Stack>
    </Card>
  )
}
