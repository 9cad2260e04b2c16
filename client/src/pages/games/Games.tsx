/** Game list (GET /api/game): poster cards in a responsive grid, running games first. */
import { useMemo, useState } from 'react'
import { Center, Loader, SegmentedControl, SimpleGrid, Stack, Text, Group, Title } from '@mantine/core'
import { gameApi } from '../../api/game'
import { useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../api/queryKeys'
import { GameCard } from '../../components/GameCard/GameCard'
import { gamePhase, useNow, type GamePhase } from '../../components/GameTime/GameTime'
import { LoadError } from '../../components/LoadError/LoadError'
import { t } from '../../i18n'

const ORDER: Record<GamePhase, number> = { running: 0, upcoming: 1, ended: 2 }

export default function Games() {
  const { data: games, error, isLoading } = useQuery({ queryKey: queryKeys.game.list, queryFn: gameApi.list })
  const now = useNow()
  const [filter, setFilter] = useState<'all' | GamePhase>('all')

  const sorted = useMemo(() => {
    const list = [...(games ?? [])]
    // Stable: within a phase the server's order (newest start first) is kept.
    return list.sort((a, b) => ORDER[gamePhase(a.start, a.end, now)] - ORDER[gamePhase(b.start, b.end, now)])
  }, [games, now])
  const shown = filter === 'all' ? sorted : sorted.filter((g) => gamePhase(g.start, g.end, now) === filter)

  return (
    <Stack gap="lg" data-testid="games-page">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('比赛')}</Title>
        <SegmentedControl
          value={filter}
          onChange={(v) => setFilter(v as typeof filter)}
          data={[
            { value: 'all', label: t('全部') },
            { value: 'running', label: t('进行中') },
            { value: 'upcoming', label: t('即将开始') },
            { value: 'ended', label: t('已结束') },
          ]}
          data-testid="games-filter"
        />
      </Group>
      {!games && <LoadError error={error} />}
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : shown.length > 0 ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          {shown.map((game) => (
            <GameCard key={game.id} game={game} now={now} />
          ))}
        </SimpleGrid>
      ) : (
        !error && (
          <Text c="dimmed" ta="center" py="xl" data-testid="games-empty">
            {t('暂无比赛')}
          </Text>
        )
      )}
    </Stack>
  )
}
