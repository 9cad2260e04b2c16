/**
 * One challenge of the board: title, current score, solve count, my team's solved mark and the
 * three blood slots. Score and solve-count changes pop briefly (live pushes).
 */
import { Card, Group, Stack, Text, Tooltip } from '@mantine/core'
import { IconCircleCheckFilled, IconDroplet } from '@tabler/icons-react'
import type { ChallengeInfo } from '@flagwave/shared/schemas/scoreboard'
import { BLOOD_KINDS, BLOOD_META, BloodIcon } from '../BloodIcon/BloodIcon'
import { tagMeta } from '../ChallengeTag/ChallengeTag'
import { useChangeCount } from '../GameTime/useChangeCount'
import classes from './ChallengeCard.module.css'
import { t } from '../../i18n'
import { DeadlineBadge } from '../ChallengeRules/ChallengeRules'

export interface ChallengeCardProps {
  challenge: ChallengeInfo
  solved: boolean
  onOpen: (challenge: ChallengeInfo) => void
}

export function ChallengeCard({ challenge, solved, onOpen }: ChallengeCardProps) {
  const meta = tagMeta(challenge.tag)
  const Icon = meta.icon
  const scoreChanges = useChangeCount(challenge.score)
  const solvedChanges = useChangeCount(challenge.solved)
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      className={`${classes.card} ${solved ? classes.solved : ''}`}
      onClick={() => onOpen(challenge)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          onOpen(challenge)
        }
      }}
      role="button"
      tabIndex={0}
      aria-label={challenge.title}
      data-testid="challenge-card"
      data-challenge-id={challenge.id}
      data-solved={solved}
    >
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Icon size={18} color={`var(--mantine-color-${meta.color}-5)`} style={{ flexShrink: 0 }} />
            <Text fw={600} className={classes.title} lineClamp={2} data-testid="challenge-title">
              {challenge.title}
            </Text>
          </Group>
          {solved && (
            <Tooltip label={t('已解出')} withArrow>
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

