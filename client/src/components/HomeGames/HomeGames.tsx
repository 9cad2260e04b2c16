/** The home page's running and upcoming games (GET /api/game): poster, time left and a way in, running ones first. */
import { useMemo } from 'react'
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { IconArrowRight, IconFlag } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import { useQuery } from '@tanstack/react-query'
import type { BasicGameInfoModel } from '@flagwave/shared/schemas/games'
import { gameApi } from '../../api/game'
import { queryKeys } from '../../api/queryKeys'
import { GamePoster } from '../GameCard/GameCard'
import { countdownText, gamePhase, PhaseBadge, useNow } from '../GameTime/GameTime'
import { t } from '../../i18n'
import classes from './HomeGames.module.css'

/** At most this many cards: the home page points at the list for the rest. */
const SHOWN = 6

function HomeGameCard({ game, now }: { game: BasicGameInfoModel; now: number }) {
  const phase = gamePhase(game.start, game.end, now)
  return (
    <Card withBorder padding="sm" radius="md" data-testid="home-game" data-game-id={game.id} data-phase={phase}>
      <Card.Section pos="relative">
        <GamePoster poster={game.poster} title={game.title} />
        <PhaseBadge phase={phase} className={classes.badge} />
      </Card.Section>
      <Stack gap={6} mt="sm">
        <Title order={4} lineClamp={1} title={game.title}>
          {game.title}
        </Title>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" ff="monospace" c={phase === 'running' ? 'brand' : 'dimmed'} data-testid="home-game-countdown">
            {countdownText(game.start, game.end, now)}
          </Text>
          <Button component={Link} to={`/games/${game.id}`} size="xs" variant={phase === 'running' ? 'filled' : 'light'} rightSection={<IconArrowRight size={14} />} data-testid="home-game-join">
            {phase === 'running' ? t('参加比赛') : t('报名')}
          </Button>
        </Group>
      </Stack>
    </Card>
  )
}

export function HomeGames() {
  const { data: games } = useQuery({ queryKey: queryKeys.game.list, queryFn: gameApi.list })
  const now = useNow()
  const shown = useMemo(() => {
    const open = (games ?? []).filter((game) => gamePhase(game.start, game.end, now) !== 'ended')
    // Running first (ending soonest first), then upcoming (starting soonest first).
    const key = (game: BasicGameInfoModel) => (gamePhase(game.start, game.end, now) === 'running' ? [0, Date.parse(game.end)] : [1, Date.parse(game.start)])
    return open.sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]).slice(0, SHOWN)
  }, [games, now])
  if (shown.length === 0) return null
  return (
    <Stack gap="md" data-testid="home-games">
      <Group justify="space-between">
        <Group gap="xs">
          <IconFlag size={20} />
          <Title order={3}>{t('进行中与即将开始的比赛')}</Title>
        </Group>
        <Anchor component={Link} to="/games" size="sm" data-testid="home-all-games">
          <Group gap={4}>
            {t('全部比赛')}
            <IconArrowRight size={14} />
          </Group>
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {shown.map((game) => (
          <HomeGameCard key={game.id} game={game} now={now} />
        ))}
      </SimpleGrid>
    </Stack>
  )
}

