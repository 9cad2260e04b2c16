/**
 * One challenge of the board: title, current score, solve count, my team's solved mark and the
 * three blood slots. Score and solve-count changes pop briefly (live pushes). A challenge locked
 * by its prerequisites (docs/challenge-rules.md#prerequisites) shows a lock and what to solve
 * first, and does not open.
 */
import { Badge, Card, Group, Stack, Text, Tooltip } from '@mantine/core'
import { IconCircleCheckFilled, IconDroplet, IconLock, IconSnowflake } from '@tabler/icons-react'
import type { ChallengeInfo } from '@flagwave/shared/schemas/scoreboard'
import type { LockedChallenge } from '@flagwave/shared/schemas/challengeRules'
import { BLOOD_KINDS, BLOOD_META, BloodIcon } from '../BloodIcon/BloodIcon'
import { tagMeta } from '../ChallengeTag/ChallengeTag'
import { useChangeCount } from '../GameTime/useChangeCount'
import classes from './ChallengeCard.module.css'
import { t } from '../../i18n'
import { DeadlineBadge } from '../ChallengeRules/ChallengeRules'

export interface ChallengeCardProps {
  challenge: ChallengeInfo
  solved: boolean
  /** Solved by my team after the scoreboard freeze: the public board does not show it yet (docs/scoring.md#freeze). */
  afterFreeze?: boolean
  onOpen: (challenge: ChallengeInfo) => void
  /** Set while prerequisites lock it for the team. */
  locked?: LockedChallenge
}

export function ChallengeCard({ challenge, solved, afterFreeze = false, onOpen, locked }: ChallengeCardProps) {
  const meta = tagMeta(challenge.tag)
  const Icon = meta.icon
  const scoreChanges = useChangeCount(challenge.score)
  const solvedChanges = useChangeCount(challenge.solved)
  const title = challenge.title || t('未解锁的题目')
  const open = () => {
    if (!locked) onOpen(challenge)
  }
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      className={`${classes.card} ${solved ? classes.solved : ''}`}
      onClick={open}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          open()
        }
      }}
      role="button"
      tabIndex={0}
      aria-label={title}
      aria-disabled={locked ? true : undefined}
      style={locked ? { opacity: 0.7, cursor: 'not-allowed' } : undefined}
      data-testid="challenge-card"
      data-challenge-id={challenge.id}
      data-solved={solved}
      data-after-freeze={afterFreeze || undefined}
      data-locked={locked ? 'true' : undefined}
    >
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            {locked ? (
              <IconLock size={18} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} data-testid="challenge-locked-mark" />
            ) : (
              <Icon size={18} color={`var(--mantine-color-${meta.color}-5)`} style={{ flexShrink: 0 }} />
            )}
            <Text fw={600} className={classes.title} lineClamp={2} c={challenge.title ? undefined : 'dimmed'} data-testid="challenge-title">
              {title}
            </Text>
          </Group>
          {afterFreeze && (
            <Badge size="xs" color="blue" variant="light" leftSection={<IconSnowflake size={10} />} style={{ flexShrink: 0 }} data-testid="challenge-after-freeze">
              {t('冻结后解出')}
            </Badge>
          )}
          {solved && (
            <Tooltip label={afterFreeze ? t('冻结后解出：积分榜揭晓前不计入公开排名') : t('已解出')} withArrow>
              <IconCircleCheckFilled size={22} color="var(--mantine-color-brand-5)" data-testid="challenge-solved-mark" style={{ flexShrink: 0 }} />
            </Tooltip>
          )}
        </Group>
        <Group justify="space-between" align="flex-end">
          <Text className={classes.score} c={solved ? 'brand' : undefined}>
            <span key={scoreChanges} className={scoreChanges ? classes.flash : undefined} data-testid="challenge-score">
              {challenge.score}
            </span>
            <Text span size="xs" c="dimmed" ml={4} fw={400}>
              {t('分')}
            </Text>
          </Text>
          <Group gap={2} wrap="nowrap">
            {BLOOD_KINDS.map((kind, i) => {
              const blood = challenge.bloods[i]
              return (
                <span key={kind} className={classes.bloodSlot} data-taken={!!blood}>
                  {blood ? (
                    <BloodIcon kind={kind} label={t('{{label}}：{{name}}', { label: BLOOD_META[kind].label, name: blood.name })} testId="challenge-blood" />
                  ) : (
                    <IconDroplet size={16} color="var(--mantine-color-dimmed)" />
                  )}
                </span>
              )
            })}
          </Group>
        </Group>
        <DeadlineBadge deadline={challenge.deadline} size="xs" style={{ alignSelf: 'flex-start' }} />
        {locked && (
          <Text size="xs" c="dimmed" data-testid="challenge-requires">
            {t('需先解出：{{names}}', { names: locked.requires.map((r) => r.title).join(t('、')) })}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          <span key={solvedChanges} className={solvedChanges ? classes.flash : undefined} data-testid="challenge-solved-count" data-count={challenge.solved}>
            {challenge.solved}
          </span>{' '}
          {t('支队伍解出')}
        </Text>
      </Stack>
    </Card>
  )
}

