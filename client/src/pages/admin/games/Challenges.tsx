/**
 * A game's challenges for editing (GET /api/edit/games/{id}/challenges), grouped by category in
 * tag order: type, current/original/minimum score, number of solves (the scoreboard's `solved`,
 * i.e. acceptedCount, for challenges on the board) and an enable switch per challenge
 * (PUT {isEnabled}; server refusals such as `题目无 flag，不可启用` are shown verbatim).
 * "新建题目" creates one (title, category, type) and opens its editor. Above the list, the game's
 * schedule of openings and deadlines; on each card its rules (docs/challenge-rules.md).
 */
import { useState } from 'react'
import { ActionIcon, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Switch, Text, Title, Tooltip } from '@mantine/core'
import { IconEdit, IconFlag, IconPlus } from '@tabler/icons-react'
import { Link, useNavigate } from 'react-router-dom'
import { isContainerType, type ChallengeTag } from '@flagwave/shared/enums'
import { notifications } from '@mantine/notifications'
import { NO_PROVIDER_WARNING, useNoContainerProvider } from '../../../utils/containerFailure'
import type { ChallengeInfoModel } from '@flagwave/shared/schemas/challenges'
import { editApi, invalidateEdit } from '../../../api/edit'
import { skipToken, useQuery } from '@tanstack/react-query'
import { queryClient } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { scoreboardQuery } from '../../../live/queries'
import { ChallengeCreateModal } from '../../../components/ChallengeForm/ChallengeCreateModal'
import { ChallengeTypeBadge } from '../../../components/ChallengeForm/ChallengeTypes'
import { ChallengeTagBadge, TAG_ORDER } from '../../../components/ChallengeTag/ChallengeTag'
import { GameEditFrame, useEditGame, useEditGameId } from '../../../components/GameEditFrame/GameEditFrame'
import { notifyError, notifySuccess } from '../../../utils/notify'
import { LoadError } from '../../../components/LoadError/LoadError'
import { t } from '../../../i18n'
import { ChallengeSchedule } from '../../../components/ChallengeRules/ChallengeSchedule'
import { ChallengeRuleBadges } from '../../../components/ChallengeRules/ChallengeRuleBadges'

/** The challenges grouped by tag, in tag order; inside a tag by id. */
function groupByTag(challenges: ChallengeInfoModel[]): [ChallengeTag, ChallengeInfoModel[]][] {
  return TAG_ORDER.map((tag) => [tag, challenges.filter((c) => c.tag === tag).sort((a, b) => a.id - b.id)] as [ChallengeTag, ChallengeInfoModel[]]).filter(
    ([, list]) => list.length > 0,
  )
}

/**
 * Solves per challenge id from the scoreboard (enabled challenges held by accepted teams); the
 * board exists only once the game has started (before that nothing is solved).
 */
function useSolvedCounts(gameId: number | null): Map<number, number> | null {
  const { data: game } = useEditGame(gameId)
  const started = game !== undefined && Date.parse(game.start) <= Date.now()
  const { data } = useQuery({ ...scoreboardQuery(started ? gameId : null), refetchInterval: 30_000, retry: false })
  if (game && !started) return new Map()
  if (!data) return null
  const counts = new Map<number, number>()
  for (const list of Object.values(data.scoreboard?.challenges ?? {})) for (const c of list ?? []) counts.set(c.id, c.solved)
  return counts
}

function ChallengeCard({ gameId, challenge, solved, onToggled }: { gameId: number; challenge: ChallengeInfoModel; solved: number | null; onToggled: (next: ChallengeInfoModel) => void }) {
  const [busy, setBusy] = useState(false)
  const noProvider = useNoContainerProvider()
  const toggle = async (enabled: boolean) => {
    setBusy(true)
    try {
      const detail = await editApi.challenges.setEnabled(gameId, challenge.id, enabled)
      onToggled({ ...challenge, isEnabled: detail.isEnabled, title: detail.title, tag: detail.tag, originalScore: detail.originalScore, releaseTimeUtc: detail.releaseTimeUtc })
      invalidateEdit(queryKeys.edit.challenge(gameId, challenge.id), { key: queryKeys.edit.challenge(gameId, challenge.id), data: detail })
      notifySuccess(detail.isEnabled ? t('「{{title}}」已启用', { title: detail.title }) : t('「{{title}}」已禁用', { title: detail.title }))
      if (detail.isEnabled && isContainerType(detail.type) && noProvider) {
        notifications.show({ color: 'yellow', title: t('容器无法启动'), message: NO_PROVIDER_WARNING, autoClose: 12_000, 'data-testid': 'container-provider-warning' })
      }
    } catch (error) {
      notifyError(error, enabled ? t('启用失败') : t('禁用失败'))
    } finally {
      setBusy(false)
    }
  }
  const base = `/admin/games/${gameId}/challenges/${challenge.id}`
  return (
    <Card withBorder radius="md" padding="sm" data-testid="admin-challenge-card" data-challenge-id={challenge.id} data-enabled={challenge.isEnabled ? 'true' : 'false'}>
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} lineClamp={1} component={Link} to={base} data-testid="admin-challenge-title" style={{ color: 'inherit', textDecoration: 'none' }}>
            {challenge.title}
          </Text>
          <Switch
            checked={challenge.isEnabled}
            disabled={busy}
            onChange={(event) => void toggle(event.currentTarget.checked)}
            aria-label={t('启用题目')}
            data-testid="admin-challenge-enable"
          />
        </Group>
        <Group gap={6}>
          <ChallengeTypeBadge type={challenge.type} size="sm" />
          <Badge size="sm" variant="light" color={challenge.isEnabled ? 'brand' : 'gray'}>
            {challenge.isEnabled ? t('已启用') : t('未启用')}
          </Badge>
          <ChallengeRuleBadges challenge={challenge} />
        </Group>
        <Group justify="space-between" gap="xs">
          <Text size="sm">
            <Text span fw={700} ff="monospace" data-testid="admin-challenge-score">
              {challenge.score}
            </Text>
            <Text span size="xs" c="dimmed">
              {' '}
              {t('/ {{original}} 分（最低 {{min}}）', { original: challenge.originalScore, min: challenge.minScore })}
            </Text>
          </Text>
          <Text size="xs" c="dimmed" data-testid="admin-challenge-solved">
            {solved === null ? t('— 解') : t('{{solved}} 解', { solved })}
          </Text>
        </Group>
        <Group gap="xs" justify="flex-end">
          <Tooltip label={t('编辑题目')} withArrow>
            <ActionIcon variant="light" component={Link} to={base} aria-label={t('编辑题目')} data-testid="admin-challenge-edit">
              <IconEdit size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('Flag 管理')} withArrow>
            <ActionIcon variant="light" component={Link} to={`${base}/flags`} aria-label={t('Flag 管理')} data-testid="admin-challenge-flags">
              <IconFlag size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Stack>
    </Card>
  )
}

export default function Challenges() {
  const gameId = useEditGameId()
  const navigate = useNavigate()
  const [creating, setCreating] = useState(false)
  const queryKey = queryKeys.edit.challenges(gameId ?? 0)
  const { data, error, isLoading } = useQuery({ queryKey, queryFn: gameId === null ? skipToken : () => editApi.challenges.list(gameId) })
  const mutate = (update: (current: ChallengeInfoModel[] | undefined) => ChallengeInfoModel[]) => queryClient.setQueryData(queryKey, update)
  const solvedCounts = useSolvedCounts(gameId)

  const solvedOf = (challenge: ChallengeInfoModel): number | null => {
    const counted = solvedCounts?.get(challenge.id)
    if (counted !== undefined) return counted
    // Not on the board: nobody holds it yet (or the game has not started); unknown when disabled.
    return challenge.isEnabled || solvedCounts === null ? 0 : null
  }

  return (
    <GameEditFrame
      testId="admin-game-challenges-page"
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="challenge-create-open">
          {t('新建题目')}
        </Button>
      }
    >
      {gameId !== null && (
        <ChallengeCreateModal
          gameId={gameId}
          opened={creating}
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false)
            notifySuccess(t('题目「{{title}}」已创建', { title: created.title }))
            invalidateEdit(queryKeys.edit.challenges(gameId), { key: queryKeys.edit.challenge(gameId, created.id), data: created })
            navigate(`/admin/games/${gameId}/challenges/${created.id}`)
          }}
        />
      )}
      {!data && <LoadError error={error} />}
      {isLoading && !data ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} height={140} />
          ))}
        </SimpleGrid>
      ) : data && data.length === 0 ? (
        <Card withBorder padding="xl" data-testid="admin-challenges-empty">
          <Text c="dimmed" ta="center">
            {t('还没有题目，点击「新建题目」添加第一道题目。')}
          </Text>
        </Card>
      ) : data && gameId !== null ? (
        <Stack gap="lg" data-testid="admin-challenge-list">
          <ChallengeSchedule gameId={gameId} challenges={data} />
          {groupByTag(data).map(([tag, list]) => (
            <Stack key={tag} gap="xs" data-testid="admin-challenge-group" data-tag={tag}>
              <Group gap="xs">
                <ChallengeTagBadge tag={tag} size="lg" />
                <Title order={5} c="dimmed">
                  {list.length} {t('道题目')}
                </Title>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
                {list.map((challenge) => (
                  <ChallengeCard
                    key={challenge.id}
                    gameId={gameId}
                    challenge={challenge}
                    solved={solvedOf(challenge)}
                    onToggled={(next) => void mutate((current) => (current ?? []).map((c) => (c.id === next.id ? next : c)))}
                  />
                ))}
              </SimpleGrid>
            </Stack>
          ))}
        </Stack>
      ) : null}
    </GameEditFrame>
  )
}
