/**
 * /monitor: the games a Monitor or Admin can open the monitor of (GET /api/game), running first, so
 * the navbar's monitor entry works before any game was opened in this browser. Hidden games are
 * reached from their editor (admin/games/{id}).
 */
import { useMemo } from 'react'
import { Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { IconEye } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import { useQuery } from '@tanstack/react-query'
import { gameApi } from '../../../api/game'
import { queryKeys } from '../../../api/queryKeys'
import { formatTime, gamePhase, PhaseBadge, useNow, type GamePhase } from '../../../components/GameTime/GameTime'
import { LoadError } from '../../../components/LoadError/LoadError'
import { t } from '../../../i18n'

const ORDER: Record<GamePhase, number> = { running: 0, upcoming: 1, ended: 2 }

export default function MonitorGames() {
  const { data: games, error, isLoading } = useQuery({ queryKey: queryKeys.game.list, queryFn: gameApi.list })
  const now = useNow(60_000)
  const sorted = useMemo(() => [...(games ?? [])].sort((a, b) => ORDER[gamePhase(a.start, a.end, now)] - ORDER[gamePhase(b.start, b.end, now)]), [games, now])

  return (
    <Stack gap="md" data-testid="monitor-games-page">
      <Title order={2}>{t('选择要监控的比赛')}</Title>
      {!games && <LoadError error={error} />}
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : sorted.length === 0 ? (
        !error && (
          <Text c="dimmed" ta="center" py="xl">
            {t('暂无比赛')}
          </Text>
        )
      ) : (
        sorted.map((game) => (
          <Card key={game.id} withBorder padding="sm" radius="md" data-testid="monitor-game" data-game-id={game.id}>
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <PhaseBadge phase={gamePhase(game.start, game.end, now)} />
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text fw={600} lineClamp={1}>
                    {game.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatTime(game.start)} ~ {formatTime(game.end)}
                  </Text>
                </Stack>
              </Group>
              <Button component={Link} to={`/games/${game.id}/monitor/events`} variant="light" leftSection={<IconEye size={16} />} data-testid="monitor-game-open">
                {t('进入监控')}
              </Button>
            </Group>
          </Card>
        ))
      )}
    </Stack>
  )
}
