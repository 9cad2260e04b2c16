/**
 * Game detail (GET /api/game/{id}): poster, time window with a live countdown, the introduction
 * (sanitised Markdown), team count and the caller's participation; joining (POST, with team,
 * organization and invite code as the game requires) and leaving (DELETE, Pending/Rejected only,
 * confirmed); entries to the challenges and the scoreboard once they are open.
 */
import { useState } from 'react'
import { Alert, Badge, Button, Card, Grid, Group, Modal, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core'
import { modals } from '@mantine/modals'
import { IconChartBar, IconDoorExit, IconFlag, IconLogin, IconUsers, IconUsersPlus } from '@tabler/icons-react'
import { Link, useLocation } from 'react-router-dom'
import type { ParticipationStatus } from '@flagwave/shared/enums'
import type { DetailedGameInfoModel } from '@flagwave/shared/schemas/games'
import { gameApi } from '../../api/game'
import { useQuery } from '@tanstack/react-query'
import { gameQuery, joinCheckQuery, myTeamsQuery } from '../../live/queries'
import { GamePoster } from '../../components/GameCard/GameCard'
import { Countdown, formatTime, gamePhase, PhaseBadge, useNow } from '../../components/GameTime/GameTime'
import { Markdown } from '../../components/Markdown/Markdown'
import { useGameId } from '../../layouts/WithGameTab'
import { loginUrl } from '../../layouts/WithRole'
import { useSession } from '../../stores/session'
import { notifyError, notifySuccess } from '../../utils/notify'
import { LoadError } from '../../components/LoadError/LoadError'
import { ModalFooter } from '../../components/ModalFooter/ModalFooter'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'
import { Trans } from 'react-i18next'
import { modalsReady } from '../../components/ConfirmDialog/modalsHost'

const PARTICIPATION_META: Record<ParticipationStatus, { label: string; color: string }> = {
  Unsubmitted: { label: t('未报名'), color: 'gray' },
  Pending: { label: t('审核中'), color: 'yellow' },
  Accepted: { label: t('已通过'), color: 'brand' },
  Rejected: { label: t('未通过'), color: 'alert' },
  Suspended: { label: t('已禁赛'), color: 'alert' },
}

export default function GameDetail() {
  const gameId = useGameId()
  const { data: game, error, isLoading, refetch: revalidate } = useQuery(gameQuery(gameId))
  const now = useNow()

  if (gameId === null) return <Alert color="alert">{t('无效的比赛')}</Alert>
  if (isLoading || (!game && !error)) {
    return (
      <Stack data-testid="game-detail-page">
        <Skeleton height={240} />
        <Skeleton height={120} />
      </Stack>
    )
  }
  if (!game) {
    return (
      <LoadError error={error} testId="game-detail-page" />
    )
  }

  const phase = gamePhase(game.start, game.end, now)
  return (
    <Grid gap="lg" data-testid="game-detail-page">
      <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: 2 }}>
        <Stack gap="md">
          <Card withBorder padding={0} radius="md">
            <GamePoster poster={game.poster} title={game.title} />
          </Card>
          <Card withBorder radius="md" padding="md">
            <Stack gap="sm">
              <Group justify="space-between">
                <PhaseBadge phase={phase} size="lg" />
                {game.practiceMode && (
                  <Badge variant="outline" color="gray">
                    {t('练习模式')}
                  </Badge>
                )}
              </Group>
              <Countdown start={game.start} end={game.end} size="xl" fw={700} c={phase === 'running' ? 'brand' : undefined} />
              <Text size="sm" c="dimmed">
                {formatTime(game.start)} ~ {formatTime(game.end)}
              </Text>
              <Group gap="xs">
                <Badge variant="light" leftSection={<IconUsers size={12} />} data-testid="game-team-count">
                  {game.teamCount} {t('支队伍')}
                </Badge>
                <Badge variant="light" color="gray">
                  {game.limit > 0 ? t('每队至多 {{limit}} 人', { limit: game.limit }) : t('人数不限')}
                </Badge>
              </Group>
              <Participation game={game} onChanged={() => void revalidate()} />
            </Stack>
          </Card>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
        <Stack gap="md">
          {game.summary && (
            <Text size="lg" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
              {game.summary}
            </Text>
          )}
          {game.content ? <Markdown source={game.content} testId="game-content" /> : <Text c="dimmed">{t('暂无比赛介绍')}</Text>}
        </Stack>
      </Grid.Col>
    </Grid>
  )
}

/** The caller's participation and the actions it allows. */
function Participation({ game, onChanged }: { game: DetailedGameInfoModel; onChanged: () => void }) {
  const session = useSession((state) => state.status)
  const location = useLocation()
  const now = useNow(5_000)
  const [joinOpen, setJoinOpen] = useState(false)
  const phase = gamePhase(game.start, game.end, now)
  const closed = phase === 'ended' && !game.practiceMode
  const started = phase !== 'upcoming'
  const meta = PARTICIPATION_META[game.status]
  const playable = game.status === 'Accepted' && started && !closed

  const leave = () =>
    void modalsReady().then(() =>
      modals.openConfirmModal({
        title: t('退出比赛'),
        children: <Text size="sm">{t('确定退出「{{title}}」吗？退出后可以重新报名。', { title: game.title })}</Text>,
        labels: { confirm: t('确认'), cancel: t('取消') },
        confirmProps: { color: 'alert', 'data-testid': 'game-leave-confirm' } as Record<string, unknown>,
        onConfirm: async () => {
          try {
            await gameApi.leave(game.id)
            notifySuccess(t('已退出比赛'))
            onChanged()
          } catch (error) {
            notifyError(error)
          }
        },
      }),
    )

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Text size="sm">{t('参赛状态')}</Text>
        <Badge color={meta.color} data-testid="game-status" data-status={game.status}>
          {meta.label}
        </Badge>
        {game.teamName && (
          <Text size="sm" c="dimmed" data-testid="game-team-name">
            {game.teamName}
          </Text>
        )}
        {game.teamName && game.organization && (
          <Badge variant="outline" color="gray" data-testid="game-team-division" data-division-id={game.division ?? undefined}>
            {t('分组：{{name}}', { name: game.organization })}
          </Badge>
        )}
      </Group>

      {game.status === 'Pending' && (
        <Alert color="yellow" variant="light" p="xs" data-testid="game-pending">
          {t('报名已提交，正在等待管理员审核；审核通过后即可进入比赛。')}
        </Alert>
      )}
      {game.status === 'Rejected' && (
        <Alert color="alert" variant="light" p="xs">
          {t('报名未通过审核，可以修改后重新报名。')}
        </Alert>
      )}
      {game.status === 'Suspended' && (
        <Alert color="alert" variant="light" p="xs">
          {t('你的队伍已被禁赛。')}
        </Alert>
      )}

      <Group gap="xs">
        {session === 'anonymous' && !closed && (
          <Button component={Link} to={loginUrl(location.pathname)} leftSection={<IconLogin size={16} />} data-testid="game-login-to-join">
            {t('登录后报名')}
          </Button>
        )}
        {session === 'authenticated' && (game.status === 'Unsubmitted' || game.status === 'Rejected') && !closed && (
          <Button leftSection={<IconUsersPlus size={16} />} onClick={() => setJoinOpen(true)} data-testid="game-join-open">
            {game.status === 'Rejected' ? t('重新报名') : t('报名参赛')}
          </Button>
        )}
        {(game.status === 'Pending' || game.status === 'Rejected') && (
          <Button variant="light" color="alert" leftSection={<IconDoorExit size={16} />} onClick={leave} data-testid="game-leave">
            {t('退出比赛')}
          </Button>
        )}
        {playable && (
          <Button component={Link} to={`/games/${game.id}/challenges`} leftSection={<IconFlag size={16} />} data-testid="game-enter-challenges">
            {t('进入比赛')}
          </Button>
        )}
        {started && (
          <Button component={Link} to={`/games/${game.id}/scoreboard`} variant="light" leftSection={<IconChartBar size={16} />} data-testid="game-enter-scoreboard">
            {t('积分总榜')}
          </Button>
        )}
      </Group>
      {game.status === 'Accepted' && !started && (
        <Text size="sm" c="dimmed">
          {t('报名已通过，比赛开始后即可进入。')}
        </Text>
      )}
      {closed && game.status === 'Unsubmitted' && (
        <Text size="sm" c="dimmed">
          {t('比赛已结束，无法报名。')}
        </Text>
      )}
      <JoinModal game={game} opened={joinOpen} onClose={() => setJoinOpen(false)} onJoined={onChanged} />
    </Stack>
  )
}

/** Choose one of my teams (+ division / invite code) and POST /api/game/{id}. */
function JoinModal({ game, opened, onClose, onJoined }: { game: DetailedGameInfoModel; opened: boolean; onClose: () => void; onJoined: () => void }) {
  const teams = useQuery({ ...myTeamsQuery(opened), refetchInterval: false })
  const needsDivision = game.divisions.length > 0
  // Only the divisions that take new teams now (GET …/check); the game's list until it answers.
  const check = useQuery({ ...joinCheckQuery(game.id, opened && needsDivision), refetchInterval: false })
  const [teamId, setTeamId] = useState<string | null>(null)
  const [divisionId, setDivisionId] = useState<string | null>(null)
  const [inviteCode, setInviteCode] = useState('')
  const { busy, run } = useAction()
  const joinable = check.data ? game.divisions.filter((d) => check.data.joinableDivisions.includes(d.id)) : game.divisions
  const division = joinable.find((d) => String(d.id) === divisionId) ?? null

  // A division with its own invite code asks for it instead of the game's (docs/scoring.md#divisions).
  const needsCode = game.inviteCodeRequired || (division?.inviteCodeRequired ?? false)

  const list = teams.data ?? []
  const selected = teamId ?? (list.length === 1 ? String(list[0]!.id) : null)
  const valid = selected !== null && (!needsDivision || division !== null) && (!needsCode || inviteCode.trim() !== '')

  const submit = async () => {
    if (!valid) return
    await run(t('报名失败'), async () => {
      await gameApi.join(game.id, {
        teamId: Number(selected),
        divisionId: division ? division.id : null,
        inviteCode: needsCode ? inviteCode.trim() : null,
      })
      // A game with review leaves the team pending: say so rather than a bare success.
      const after = await gameApi.detail(game.id).catch(() => null)
      if (after?.status === 'Pending') notifySuccess(t('报名已提交，请等待管理员审核'), game.status === 'Rejected' ? t('已重新报名') : t('报名成功'))
      else notifySuccess(game.status === 'Rejected' ? t('已重新报名') : t('报名成功'))
      onClose()
      onJoined()
    })
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('报名「{{title}}」', { title: game.title })} data-testid="join-modal">
      <Stack gap="md">
        {teams.isLoading ? (
          <Skeleton height={36} />
        ) : list.length === 0 ? (
          <Alert color="yellow" variant="light" title={t('还没有队伍')}>
            <Trans i18nKey="请先<0>创建或加入一支队伍</0>，再来报名。" components={[<Link key="teams" to="/teams" />]} />
          </Alert>
        ) : (
          <Select
            label={t('参赛队伍')}
            placeholder={t('选择你的队伍')}
            data={list.map((t) => ({ value: String(t.id), label: t.name ?? `#${t.id}` }))}
            value={selected}
            onChange={setTeamId}
            allowDeselect={false}
            required
            data-testid="join-team-select"
          />
        )}
        {needsDivision && (
          <Select
            label={t('参赛单位')}
            placeholder={t('选择参赛单位')}
            data={joinable.map((d) => ({ value: String(d.id), label: d.name }))}
            value={divisionId}
            onChange={setDivisionId}
            searchable
            required
            data-testid="join-org-select"
          />
        )}
        {needsCode && (
          <TextInput label={t('邀请码')} placeholder={t('比赛邀请码')} value={inviteCode} onChange={(e) => setInviteCode(e.currentTarget.value)} required data-testid="join-invite-code" />
        )}
        {game.limit > 0 && (
          <Text size="xs" c="dimmed">
            {t('本比赛每支队伍至多 {{limit}} 名队员报名。', { limit: game.limit })}
          </Text>
        )}
        <ModalFooter onCancel={onClose} confirmLabel={t('报名')} onConfirm={() => void submit()} loading={busy} disabled={!valid} confirmTestId="join-submit" />
      </Stack>
    </Modal>
  )
}
