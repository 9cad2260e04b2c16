import { Group, Text } from '@mantine/core'
import type { NamespaceName } from '@flagwave/shared/events'
import { useRealtimeStatus, type HubStatus } from '../../realtime/hub'
import classes from './RealtimeStatus.module.css'
import { t } from '../../i18n'

const LABELS: Record<HubStatus, string> = {
  idle: t('未连接'),
  connecting: t('连接中'),
  connected: t('实时推送'),
  disconnected: t('离线 · 定时刷新'),
  refused: t('推送不可用 · 定时刷新'),
}

/** A small indicator of a hub's connection; while it is down, data falls back to the 10 s refresh. */
export function RealtimeStatus({ namespace = 'user' }: { namespace?: NamespaceName }) {
  const status = useRealtimeStatus((state) => state[namespace])
  return (
    <Group gap={6} wrap="nowrap" data-testid="realtime-status" data-status={status}>
      <span className={classes.dot} data-status={status} />
      <Text size="xs" c="dimmed">
        {LABELS[status]}
      </Text>
    </Group>
  )
}
