/** One game of the list: poster, status badge, title, summary, time window and team size. */
import { useState, type ReactNode } from 'react'
import { AspectRatio, Badge, Card, Group, Stack, Text, Title } from '@mantine/core'
import { IconCalendarEvent, IconUsers } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import type { BasicGameInfoModel } from '@flagwave/shared/schemas/games'
import { countdownText, formatTime, gamePhase, PhaseBadge } from '../GameTime/GameTime'
import { markdownToText } from '../../utils/markdownText'
import classes from './GameCard.module.css'
import { t } from '../../i18n'

/** A game poster (`/assets/{hash}/poster`) or a teal gradient with the title. */
export function GamePoster({ poster, title, children }: { poster: string | null; title: string; children?: ReactNode }) {
  const [failed, setFailed] = useState(false)
  return (
    <AspectRatio ratio={16 / 9} className={classes.poster}>
      {poster && !failed ? (
        <img src={poster} alt={title} className={classes.posterImage} loading="lazy" onError={() => setFailed(true)} data-testid="game-poster" />
      ) : (
        <div className={classes.posterFallback}>{title}</div>
      )}
      {children}
    </AspectRatio>
  )
}

export function GameCard({ game, now }: { game: BasicGameInfoModel; now: number }) {
  const phase = gamePhase(game.start, game.end, now)
  return (
    <Card withBorder padding="md" radius="md" component={Link} to={`/games/${game.id}`} className={classes.card} data-testid="game-card" data-game-id={game.id}>
      <Card.Section pos="relative">
        <GamePoster poster={game.poster} title={game.title} />
        <PhaseBadge phase={phase} className={classes.badge} size="lg" />
      </Card.Section>
      <Stack gap={6} mt="md" style={{ flex: 1 }}>
        <Title order={3} size="h4" lineClamp={2}>
          {game.title}
        </Title>
        {game.summary && (
          <Text size="sm" c="dimmed" lineClamp={3} className={classes.summary}>
            {markdownToText(game.summary)}
          </Text>
        )}
      </Stack>
      <Stack gap={4} mt="md">
        <Group gap={6} wrap="nowrap">
          <IconCalendarEvent size={14} />
          <Text size="xs" c="dimmed">
            {formatTime(game.start)} ~ {formatTime(game.end)}
          </Text>
        </Group>
        <Group justify="space-between">
          <Text size="xs" ff="monospace" c={phase === 'running' ? 'brand' : 'dimmed'}>
            {countdownText(game.start, game.end, now)}
          </Text>
          <Badge variant="outline" size="sm" leftSection={<IconUsers size={12} />}>
            {game.limit > 0 ? t('每队至多 {{limit}} 人', { limit: game.limit }) : t('人数不限')}
          </Badge>
        </Group>
      </Stack>
    </Card>
  )
}

