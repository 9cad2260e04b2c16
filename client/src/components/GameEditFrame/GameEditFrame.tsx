/**
 * The frame of a game's editing screens (admin/games/{id}/…): a back link to the game list, the
 * game's title with its hidden/practice badges, and tabs for Info, Notices, Challenges, Review,
 * Writeups and Integrations (webhooks, the CTFtime feed), and links to the game's public page,
 * scoreboard, big screen and monitor. The editors render themselves inside it (the router's AdminLayout stays above).
 */
import type { ReactNode } from 'react'
import { ActionIcon, Badge, Button, Group, Skeleton, Stack, Tabs, Title, Tooltip } from '@mantine/core'
import { IconArrowLeft, IconChartBar, IconDeviceDesktop, IconExternalLink, IconEye, IconFileText, IconFlag, IconInfoCircle, IconPlugConnected, IconSpeakerphone, IconUserCheck, IconUsersGroup } from '@tabler/icons-react'
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom'
import { editApi } from '../../api/edit'
import { skipToken, useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../api/queryKeys'
import { t } from '../../i18n'

/** The `:id` route parameter of the game editors; null when it is not a positive integer. */
export function useEditGameId(): number | null {
  const { id } = useParams()
  const value = Number(id)
  return id && /^\d+$/.test(id) && value > 0 ? value : null
}

/** The `:chalId` route parameter; null when it is not a positive integer. */
export function useEditChallengeId(): number | null {
  const { chalId } = useParams()
  const value = Number(chalId)
  return chalId && /^\d+$/.test(chalId) && value > 0 ? value : null
}

/** The game being edited (shared cache entry with the Info editor). */
export function useEditGame(gameId: number | null) {
  return useQuery({ queryKey: queryKeys.edit.game(gameId ?? 0), queryFn: gameId === null ? skipToken : () => editApi.games.get(gameId), refetchInterval: false })
}

const TABS = [
  { value: 'info', label: t('基本信息'), icon: IconInfoCircle },
  { value: 'notices', label: t('比赛通知'), icon: IconSpeakerphone },
  { value: 'challenges', label: t('比赛题目'), icon: IconFlag },
  { value: 'divisions', label: t('分组'), icon: IconUsersGroup },
  { value: 'review', label: t('参赛审核'), icon: IconUserCheck },
  { value: 'writeups', label: 'Writeups', icon: IconFileText },
  { value: 'integrations', label: t('集成'), icon: IconPlugConnected },
] as const

/** The game as players and monitors see it, from its editor (the big screen opens in a new tab: it is meant for another display). */
function GameLinks({ gameId }: { gameId: number }) {
  const links = [
    { key: 'public', to: `/games/${gameId}`, label: t('比赛页面'), icon: IconExternalLink },
    { key: 'scoreboard', to: `/games/${gameId}/scoreboard`, label: t('积分榜'), icon: IconChartBar },
    { key: 'bigscreen', to: `/games/${gameId}/scoreboard/bigscreen`, label: t('大屏'), icon: IconDeviceDesktop, newTab: true },
    { key: 'monitor', to: `/games/${gameId}/monitor/events`, label: t('监控'), icon: IconEye },
  ]
  return (
    <Group gap={4} wrap="wrap" data-testid="edit-game-links">
      {links.map(({ key, to, label, icon: Icon, newTab }) => (
        <Button
          key={key}
          component={Link}
          to={to}
          target={newTab ? '_blank' : undefined}
          rel={newTab ? 'noopener' : undefined}
          variant="subtle"
          size="compact-sm"
          leftSection={<Icon size={14} />}
          data-testid={`edit-link-${key}`}
        >
          {label}
        </Button>
      ))}
    </Group>
  )
}

export interface GameEditFrameProps {
  children: ReactNode
  /** Test id of the screen inside the frame. */
  testId?: string
  /** Extra controls at the right of the header. */
  actions?: ReactNode
}

export function GameEditFrame({ children, testId, actions }: GameEditFrameProps) {
  const gameId = useEditGameId()
  const navigate = useNavigate()
  const segments = useLocation().pathname.toLowerCase().split('/')
  const active = TABS.find((tab) => segments[4] === tab.value)?.value ?? null
  const { data: game } = useEditGame(gameId)
  const base = `/admin/games/${gameId}`

  return (
    <Stack gap="md" data-testid={testId} data-game-id={gameId ?? undefined}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Tooltip label={t('返回比赛列表')} withArrow>
            <ActionIcon variant="subtle" size="lg" onClick={() => navigate('/admin/games')} aria-label={t('返回比赛列表')} data-testid="edit-back-to-games">
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          {game ? (
            <Title order={3} lineClamp={1} data-testid="edit-game-title">
              {game.title}
            </Title>
          ) : (
            <Skeleton height={28} width={240} />
          )}
          {game?.hidden && (
            <Badge color="gray" variant="light">
              {t('隐藏')}
            </Badge>
          )}
          {game?.practiceMode && (
            <Badge color="brand" variant="light">
              {t('练习模式')}
            </Badge>
          )}
        </Group>
        {actions}
      </Group>
      {gameId !== null && <GameLinks gameId={gameId} />}
      <Tabs value={active} onChange={(value) => value && navigate(`${base}/${value}`)} data-testid="game-edit-tabs">
        <Tabs.List>
          {TABS.map(({ value, label, icon: Icon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} />} data-testid={`game-edit-tab-${value}`}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {gameId === null ? null : children}
    </Stack>
  )
}

