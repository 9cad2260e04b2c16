/**
 * The costed hints of a challenge as the team sees them (docs/challenge-rules.md#costed-hints):
 * unlocked ones with their content, locked ones with their cost and an unlock button that asks
 * for confirmation first. The deduction reaches the score through the board's pushes.
 */
import { useState } from 'react'
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core'
import { IconLock, IconLockOpen } from '@tabler/icons-react'
import type { CostedHintState } from '@flagwave/shared/schemas/challengeRules'
import type { ChallengeDetailModel } from '@flagwave/shared/schemas/play'
import { gameApi } from '../../api/game'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { confirmDialog } from '../ConfirmDialog/confirm'
import { Markdown } from '../Markdown/Markdown'
import { formatTime } from '../GameTime/GameTime'
import { notifyError } from '../../utils/notify'
import { t } from '../../i18n'

export interface CostedHintListProps {
  gameId: number
  challenge: ChallengeDetailModel
}

/** What a hint costs, in words: the points, and the share for a percentage hint. */
const hintCostText = (hint: CostedHintState): string =>
  hint.kind === 'Percent' ? t('{{cost}} 分（题目当前分值的 {{amount}}%）', { cost: hint.cost, amount: hint.amount }) : t('{{cost}} 分', { cost: hint.cost })

export function CostedHintList({ gameId, challenge }: CostedHintListProps) {
  const [busy, setBusy] = useState<number | null>(null)
  if (challenge.costedHints.length === 0) return null

  const unlock = async (hint: CostedHintState) => {
    const confirmed = await confirmDialog({
      title: t('解锁提示'),
      message: t('解锁此提示将从你的队伍扣除 {{cost}}，无论之后是否解出本题。确定解锁吗？', { cost: hintCostText(hint) }),
      confirmLabel: t('扣分解锁'),
    })
    if (!confirmed) return
    setBusy(hint.id)
    try {
      const states = await gameApi.unlockHint(gameId, challenge.id, hint.id)
      const unlocked = states.flatMap((h) => (h.content === null ? [] : [h.content]))
      const key = queryKeys.game.challenge(gameId, challenge.id)
      queryClient.setQueryData<ChallengeDetailModel>(key, (held) => {
        if (!held) return held
        // v0.17.6's `hints`: the free hints, then the unlocked costed ones.
        const free = (held.hints ?? []).slice(0, (held.hints?.length ?? 0) - held.costedHints.filter((h) => h.unlocked).length)
        return { ...held, costedHints: states, hints: [...free, ...unlocked] }
      })
    } catch (error) {
      notifyError(error, t('解锁失败'))
    } finally {
      setBusy(null)
    }
  }

  return (
    <Alert variant="light" color="grape" icon={<IconLock size={18} />} title={t('付费提示')} data-testid="costed-hints">
      <Stack gap="xs">
        {challenge.costedHints.map((hint, i) => (
          <Stack key={hint.id} gap={4} data-testid="costed-hint" data-hint-id={hint.id} data-unlocked={hint.unlocked}>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={600}>
                {t('提示 {{n}}', { n: i + 1 })}
              </Text>
              {hint.unlocked ? (
                <Badge color="grape" variant="light" leftSection={<IconLockOpen size={12} />} data-testid="costed-hint-paid">
                  {hint.cost === 0 ? t('免费') : t('已扣 {{cost}} 分', { cost: hint.cost })}
                </Badge>
              ) : (
                <Button size="compact-xs" variant="light" color="grape" loading={busy === hint.id} onClick={() => void unlock(hint)} data-testid="costed-hint-unlock">
                  {t('解锁（{{cost}}）', { cost: hintCostText(hint) })}
                </Button>
              )}
            </Group>
            {!hint.unlocked && hint.freeAt && (
              <Text size="xs" c="dimmed" data-testid="costed-hint-free-at">
                {t('{{time}} 起免费', { time: formatTime(hint.freeAt) })}
              </Text>
            )}
            {hint.unlocked && hint.content !== null && <Markdown source={hint.content} testId="costed-hint-content" />}
          </Stack>
        ))}
      </Stack>
    </Alert>
  )
}
