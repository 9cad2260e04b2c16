/**
 * The controls of a live feed: connection state, pause/resume of the live updates (with the number
 * of rows waiting while paused), the number of rows loaded, and a manual refresh.
 */
import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core'
import { IconPlayerPause, IconPlayerPlay, IconRefresh } from '@tabler/icons-react'
import type { NamespaceName } from '@flagwave/shared/events'
import { RealtimeStatus } from '../RealtimeStatus/RealtimeStatus'
import type { LiveFeed } from '../LiveTable/useLiveFeed'
import { t } from '../../i18n'

export interface LiveFeedControlsProps {
  feed: Pick<LiveFeed<unknown>, 'paused' | 'buffered' | 'setPaused' | 'revalidate' | 'rows'>
  namespace: NamespaceName
  /** Rows shown after client-side filters, when they differ from the rows loaded. */
  shown?: number
  testId?: string
}

export function LiveFeedControls({ feed, namespace, shown, testId = 'live' }: LiveFeedControlsProps) {
  const loaded = feed.rows.length
  return (
    <Group gap="sm" wrap="wrap" justify="flex-end">
      <RealtimeStatus namespace={namespace} />
      <Text size="xs" c="dimmed" data-testid={`${testId}-count`}>
        {shown !== undefined && shown !== loaded ? t('显示 {{shown}} / 已加载 {{loaded}} 条', { shown, loaded }) : t('已加载 {{loaded}} 条', { loaded })}
      </Text>
      {feed.paused && (
        <Badge color="yellow" variant="light" data-testid={`${testId}-buffered`} data-count={feed.buffered}>
          {feed.buffered > 0 ? t('暂停中 · {{buffered}} 条新记录', { buffered: feed.buffered }) : t('暂停中')}
        </Badge>
      )}
      <Button
        size="xs"
        variant={feed.paused ? 'filled' : 'light'}
        color={feed.paused ? 'yellow' : 'brand'}
        leftSection={feed.paused ? <IconPlayerPlay size={14} /> : <IconPlayerPause size={14} />}
        onClick={() => feed.setPaused(!feed.paused)}
        data-testid={`${testId}-pause`}
        data-paused={feed.paused ? 'true' : 'false'}
      >
        {feed.paused ? (feed.buffered > 0 ? t('继续 ({{buffered}})', { buffered: feed.buffered }) : t('继续')) : t('暂停')}
      </Button>
      <Tooltip label={t('刷新')} withArrow>
        <ActionIcon variant="subtle" onClick={() => void feed.revalidate()} aria-label={t('刷新')} data-testid={`${testId}-refresh`}>
          <IconRefresh size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  )
}
