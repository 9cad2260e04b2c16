import { useEffect } from 'react'
import { Group, Skeleton, Stack, Tabs, Title } from '@mantine/core'
import { IconChartBar, IconEye, IconFlag, IconInfoCircle } from '@tabler/icons-react'
import { Outlet, useLocation, useNavigate, useParams } from 'react-router-dom'
import { useQuery } from '@tanstack/react-query'
import { gameQuery } from '../live/queries'
import { useRecentGame } from '../stores/recentGame'
import { hasRole, useRole } from '../stores/session'
import { t } from '../i18n'
import { ApiError } from '../api/http'
import { StatusScreen } from '../components/StatusScreen/StatusScreen'

/** Parse the `:id` route parameter of game routes; null when it is not a positive integer. */
export function useGameId(): number | null {
  const { id } = useParams()
  const value = Number(id)
  return id && /^\d+$/.test(id) && value > 0 ? value : null
}

/**
 * The frame of a game's screens: game title and tabs (details, challenges, scoreboard, and the
 * monitor for Monitor+). Remembers the game for the navbar's monitor entry. A game that does not
 * exist (or is hidden from the reader) gets a not-found page with a real heading and no tabs.
 */
function WithGameTab() {
  const gameId = useGameId()
  const role = useRole()
  const navigate = useNavigate()
  const location = useLocation()
  const setRecent = useRecentGame((state) => state.setGameId)
  const { data, error } = useQuery(gameQuery(gameId))

  useEffect(() => {
    if (gameId !== null) setRecent(gameId)
  }, [gameId, setRecent])

  const missing = gameId === null || (error instanceof ApiError && (error.status === 404 || error.status === 400))
  if (missing) return <StatusScreen code="404" title={t('比赛不存在')} description={t('这场比赛不存在，或尚未公开。')} testId="game-not-found" />

  const base = `/games/${gameId}`
  const tabs = [
    { value: base, label: t('比赛详情'), icon: IconInfoCircle },
    { value: `${base}/challenges`, label: t('比赛题目'), icon: IconFlag },
    { value: `${base}/scoreboard`, label: t('积分总榜'), icon: IconChartBar },
    ...(hasRole(role, 'Monitor') ? [{ value: `${base}/monitor/events`, label: t('比赛监控'), icon: IconEye }] : []),
  ]
  const path = location.pathname.toLowerCase()
  const active = [...tabs].reverse().find((tab) => path === tab.value || (tab.value !== base && path.startsWith(tab.value.replace(/\/events$/, ''))))?.value ?? base

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        {data ? (
          <Title order={2} data-testid="game-title">
            {data.title}
          </Title>
        ) : (
          <Skeleton height={32} width={240} />
        )}
        <Tabs value={active} onChange={(value) => value && navigate(value)} variant="pills">
          <Tabs.List>
            {tabs.map(({ value, label, icon: Icon }) => (
              <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} />}>
                {label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      </Group>
      <Outlet />
    </Stack>
  )
}

export default WithGameTab
