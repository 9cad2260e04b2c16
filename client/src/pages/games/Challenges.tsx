/**
 * The challenge board (GET /api/game/{id}/details): challenges by category in tag order, each
 * with its current score, solve count, bloods and my team's solved mark — all live from
 * `ReceivedScoreboardUpdate`/`ReceivedChallengeUpdate` (stores/game.ts); my team's rank and
 * score; the notices (live, with toasts); the challenge modal with the flag form.
 */
import { useEffect, useMemo, useState } from 'react'
import { Alert, Avatar, Button, Card, Grid, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Switch, Text, Title } from '@mantine/core'
import { IconArrowLeft, IconTrophy } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import type { ChallengeTag, ParticipationStatus } from '@flagwave/shared/enums'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import type { ChallengeInfo } from '@flagwave/shared/schemas/scoreboard'
import { useQuery } from '@tanstack/react-query'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { gameQuery } from '../../live/queries'
import { ChallengeCard } from '../../components/ChallengeCard/ChallengeCard'
import { ChallengeModal } from '../../components/ChallengeModal/ChallengeModal'
import { TAG_ORDER, tagMeta } from '../../components/ChallengeTag/ChallengeTag'
import { NoticePanel } from '../../components/NoticePanel/NoticePanel'
import { RealtimeStatus } from '../../components/RealtimeStatus/RealtimeStatus'
import { useGameId } from '../../layouts/WithGameTab'
import { boardChallenges, isSolvedByMe } from '../../live/reducers'
import { useGameStore } from '../../stores/game'
import { useGameLive } from './useGameLive'
import { t } from '../../i18n'

const NO_NOTICES: GameNotice[] = []

/** Why a team that is not accepted cannot play, in its own words (the API's title covers them all). */
const NOT_PLAYING: Partial<Record<ParticipationStatus, string>> = {
  Pending: t('你的队伍正在等待审核，审核通过后即可进入比赛。'),
  Rejected: t('你的队伍的报名未通过审核。'),
  Suspended: t('你的队伍已被禁赛。'),
  Unsubmitted: t('你尚未报名这场比赛。'),
}

export default function Challenges() {
  const gameId = useGameId()
  const { data: game } = useQuery(gameQuery(gameId))
  const live = useGameLive(gameId, { board: true, notices: true, toasts: true, start: game?.start })
  const details = live.board.data ?? null
  const solvedLocal = useGameStore((s) => s.solvedLocal)
  const notices = live.notices.data ?? NO_NOTICES
  const [tag, setTag] = useState<'all' | ChallengeTag>('all')
  const [hideSolved, setHideSolved] = useState(false)
  const [open, setOpen] = useState<ChallengeInfo | null>(null)

  const groups = useMemo(() => {
    if (!details) return []
    return TAG_ORDER.filter((t) => (details.challenges[t]?.length ?? 0) > 0).map((t) => ({ tag: t, challenges: details.challenges[t]! }))
  }, [details])
  const all = useMemo(() => boardChallenges(details), [details])
  // Prerequisites (docs/challenge-rules.md#prerequisites): refetched when a solve unlocks something (useGameLive).
  const locked = useMemo(() => new Map((details?.lockedChallenges ?? []).map((l) => [l.id, l])), [details])
  const solvedCount = all.filter((c) => isSolvedByMe(details, solvedLocal, c.id)).length
  // Frozen: a solve of ours does not reach the board's pushes; the team's board lists it (docs/scoring.md#freeze).
  const solvedHere = Object.keys(solvedLocal).length
  const frozen = details?.solvedAfterFreeze !== undefined
  useEffect(() => {
    if (frozen && solvedHere > 0 && gameId !== null) void queryClient.invalidateQueries({ queryKey: queryKeys.game.details(gameId) })
  }, [frozen, solvedHere, gameId])

  if (gameId === null) return <Alert color="alert">{t('无效的比赛')}</Alert>

  if (!details) {
    const error = live.board.error
    return (
      <Stack data-testid="challenges-page">
        {error ? (
          <Alert color="alert" variant="light" title={t('无法进入比赛')} data-testid="challenges-error">
            <Stack gap="xs" align="flex-start">
              <Text size="sm" data-testid="challenges-error-message">
                {(game && NOT_PLAYING[game.status]) ?? error.message}
              </Text>
              <Button component={Link} to={`/games/${gameId}`} variant="light" size="xs" leftSection={<IconArrowLeft size={14} />}>
                {t('返回比赛详情')}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} height={120} radius="md" />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    )
  }

  const shownGroups = groups
    .filter((g) => tag === 'all' || g.tag === tag)
    .map((g) => ({ ...g, challenges: hideSolved ? g.challenges.filter((c) => !isSolvedByMe(details, solvedLocal, c.id)) : g.challenges }))
    .filter((g) => g.challenges.length > 0)
  const rank = details.rank

  return (
    <Grid gap="lg" data-testid="challenges-page" data-live={live.connected}>
      <Grid.Col span={{ base: 12, md: 8, xl: 9 }}>
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <SegmentedControl
              value={tag}
              onChange={(v) => setTag(v as typeof tag)}
              data={[
                { value: 'all', label: t('全部 ({{length}})', { length: all.length }) },
                ...groups.map((g) => ({ value: g.tag, label: `${tagMeta(g.tag).label} (${g.challenges.length})` })),
              ]}
              data-testid="challenge-tag-filter"
              style={{ maxWidth: '100%', overflowX: 'auto' }}
            />
            <Switch label={t('隐藏已解出')} checked={hideSolved} onChange={(e) => setHideSolved(e.currentTarget.checked)} />
          </Group>
          {all.length === 0 && (
            <Text c="dimmed" ta="center" py="xl" data-testid="challenges-empty">
              {t('暂无开放的题目')}
            </Text>
          )}
          {shownGroups.map((group) => {
            const meta = tagMeta(group.tag)
            const Icon = meta.icon
            return (
              <Stack key={group.tag} gap="xs" data-testid="challenge-group" data-tag={group.tag}>
                <Group gap={6}>
                  <Icon size={20} color={`var(--mantine-color-${meta.color}-5)`} />
                  <Title order={4}>{meta.label}</Title>
                  <Text size="sm" c="dimmed">
                    {group.challenges.length}
                  </Text>
                </Group>
                <SimpleGrid cols={{ base: 1, xs: 2, lg: 3, xl: 4 }} spacing="md">
                  {group.challenges.map((challenge) => (
                    <ChallengeCard
                      key={challenge.id}
                      challenge={challenge}
                      solved={isSolvedByMe(details, solvedLocal, challenge.id)}
                      afterFreeze={details?.solvedAfterFreeze?.includes(challenge.id) ?? false}
                      onOpen={setOpen}
                      locked={locked.get(challenge.id)}
                    />
                  ))}
                </SimpleGrid>
              </Stack>
            )
          })}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4, xl: 3 }}>
        <Stack gap="md">
          <Card withBorder radius="md" padding="md" data-testid="team-card">
            <Group gap="sm" wrap="nowrap">
              <Avatar src={rank.avatar ?? undefined} radius="xl" size="lg" color="brand">
                {rank.name.slice(0, 1)}
              </Avatar>
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text fw={700} truncate data-testid="team-card-name">
                  {rank.name}
                </Text>
                {rank.organization && (
                  <Text size="xs" c="dimmed" truncate>
                    {rank.organization}
                  </Text>
                )}
              </Stack>
            </Group>
            <SimpleGrid cols={3} mt="md" spacing="xs">
              <Stat label={t('排名')} value={rank.rank > 0 ? `#${rank.rank}` : '—'} testId="team-card-rank" />
              <Stat label={t('得分')} value={String(rank.score)} testId="team-card-score" />
              <Stat label={t('解题')} value={`${Math.max(rank.solvedCount, solvedCount)}/${all.length}`} testId="team-card-solved" />
            </SimpleGrid>
            <Group justify="space-between" mt="sm">
              <RealtimeStatus />
              <Button component={Link} to={`/games/${gameId}/scoreboard`} variant="subtle" size="compact-sm" leftSection={<IconTrophy size={14} />}>
                {t('积分榜')}
              </Button>
            </Group>
          </Card>
          <NoticePanel notices={notices} />
        </Stack>
      </Grid.Col>
      <ChallengeModal gameId={gameId} challengeId={open?.id ?? null} title={open?.title} solved={open ? isSolvedByMe(details, solvedLocal, open.id) : false} onClose={() => setOpen(null)} />
    </Grid>
  )
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={0} align="center">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} ff="monospace" size="lg" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  )
}
