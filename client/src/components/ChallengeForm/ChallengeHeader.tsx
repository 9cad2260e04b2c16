/**
 * The header of a challenge's editor screens: back to the list, title, category, type and
 * solves, the enable switch (PUT {isEnabled}; refusals such as `题目无 flag，不可启用` are shown
 * verbatim) and the switch between the challenge editor and its flags.
 */
import { useState, type ReactNode } from 'react'
import { ActionIcon, Badge, Group, SegmentedControl, Switch, Title, Tooltip } from '@mantine/core'
import { IconArrowLeft } from '@tabler/icons-react'
import { useNavigate } from 'react-router-dom'
import type { ChallengeEditDetailModel } from '@flagwave/shared/schemas/challenges'
import { editApi, invalidateEdit } from '../../api/edit'
import { skipToken, useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../api/queryKeys'
import { notifyError, notifySuccess } from '../../utils/notify'
import { ChallengeTagBadge } from '../ChallengeTag/ChallengeTag'
import { ChallengeTypeBadge } from './ChallengeTypes'
import { t } from '../../i18n'
import { ChallengeRuleBadges } from '../ChallengeRules/ChallengeRuleBadges'

export interface ChallengeHeaderProps {
  gameId: number
  challenge: ChallengeEditDetailModel
  current: 'edit' | 'flags'
  /** Called with the server's answer after the enable switch changed it. */
  onUpdated: (challenge: ChallengeEditDetailModel) => void
  actions?: ReactNode
}

export function ChallengeHeader({ gameId, challenge, current, onUpdated, actions }: ChallengeHeaderProps) {
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const base = `/admin/games/${gameId}/challenges`

  const toggle = async (enabled: boolean) => {
    setBusy(true)
    try {
      const detail = await editApi.challenges.setEnabled(gameId, challenge.id, enabled)
      onUpdated(detail)
      invalidateEdit(queryKeys.edit.challenges(gameId), { key: queryKeys.edit.challenge(gameId, challenge.id), data: detail })
      notifySuccess(detail.isEnabled ? t('题目已启用') : t('题目已禁用'))
    } catch (error) {
      notifyError(error, enabled ? t('启用失败') : t('禁用失败'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Group justify="space-between" gap="sm" data-testid="challenge-header">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <Tooltip label={t('返回题目列表')} withArrow>
          <ActionIcon variant="subtle" onClick={() => navigate(base)} aria-label={t('返回题目列表')} data-testid="challenge-back">
            <IconArrowLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <Title order={4} lineClamp={1} data-testid="challenge-header-title">
          {challenge.title}
        </Title>
        <ChallengeTagBadge tag={challenge.tag} />
        <ChallengeTypeBadge type={challenge.type} />
        <Badge variant="light" color="gray" data-testid="challenge-accepted-count">
          {challenge.acceptedCount} {t('解')}
        </Badge>
        <ChallengeRuleBadges challenge={challenge} />
      </Group>
      <Group gap="sm">
        <Switch
          label={challenge.isEnabled ? t('已启用') : t('未启用')}
          checked={challenge.isEnabled}
          disabled={busy}
          onChange={(event) => void toggle(event.currentTarget.checked)}
          data-testid="challenge-enable"
        />
        <SegmentedControl
          size="xs"
          value={current}
          onChange={(value) => navigate(value === 'edit' ? `${base}/${challenge.id}` : `${base}/${challenge.id}/flags`)}
          data={[
            { value: 'edit', label: t('编辑题目') },
            { value: 'flags', label: t('Flag 管理（{{length}}）', { length: challenge.flags.length }) },
          ]}
          data-testid="challenge-section"
        />
        {actions}
      </Group>
    </Group>
  )
}


/** The challenge being edited (cache entry shared by the editor and the flags screen). */
export function useEditChallenge(gameId: number | null, challengeId: number | null) {
  return useQuery({
    queryKey: queryKeys.edit.challenge(gameId ?? 0, challengeId ?? 0),
    queryFn: gameId === null || challengeId === null ? skipToken : () => editApi.challenges.get(gameId, challengeId),
    refetchInterval: false,
  })
}
