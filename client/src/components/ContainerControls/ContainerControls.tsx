/**
 * The team's instance container of a container challenge (docs/compatibility.md#group-game-containers): start,
 * prolong (only in the last 10 minutes), destroy, the entry (address, or the platform-proxy
 * WebSocket URL when the entry is a container GUID) and a countdown to `closeTime`.
 *
 * State: the challenge's `ClientFlagContext` (`instanceEntry`, `closeTime`), then every
 * `ContainerInfoModel` answer and `ReceivedContainerUpdate` push (game store) as they come —
 * the latest wins.
 */
import { useEffect, useState } from 'react'
import { Alert, Button, Code, CopyButton, Group, Paper, Stack, Text, Tooltip, ActionIcon } from '@mantine/core'
import { IconCheck, IconClockPlus, IconCopy, IconPlayerPlay, IconServer, IconTrash } from '@tabler/icons-react'
import { CONTAINER_PROLONG_WINDOW_MS } from '@flagwave/shared/limits'
import type { ClientFlagContext } from '@flagwave/shared/schemas/play'
import { gameApi } from '../../api/game'
import { useGameStore } from '../../stores/game'
import { notifyContainerError } from '../../utils/containerFailure'
import { formatDuration, useNow } from '../GameTime/GameTime'
import { t } from '../../i18n'

export interface ContainerControlsProps {
  gameId: number
  challengeId: number
  context: ClientFlagContext
  /** Called after a successful operation (e.g. to refetch the challenge). */
  onChanged?: () => void
}

interface ContainerView {
  entry: string
  closeTime: string | null
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The address to show: `host:port`, or the proxy WebSocket URL for a container GUID. */
function entryAddress(entry: string): string {
  if (!GUID.test(entry) || typeof window === 'undefined') return entry
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${window.location.host}/api/proxy/${entry}`
}

export function ContainerControls({ gameId, challengeId, context, onChanged }: ContainerControlsProps) {
  const [view, setView] = useState<ContainerView | null>(context.instanceEntry ? { entry: context.instanceEntry, closeTime: context.closeTime } : null)
  const [busy, setBusy] = useState<'start' | 'prolong' | 'destroy' | null>(null)
  const now = useNow()
  const pushed = useGameStore((state) => (state.gameId === gameId ? state.containers[challengeId] : undefined))

  useEffect(() => {
    setView(context.instanceEntry ? { entry: context.instanceEntry, closeTime: context.closeTime } : null)
  }, [context.instanceEntry, context.closeTime])

  useEffect(() => {
    if (!pushed) return
    if (pushed.reason === 'destroyed' || pushed.status === 'Destroyed' || !pushed.entry) setView(null)
    else setView({ entry: pushed.entry, closeTime: pushed.expectStopAt })
  }, [pushed])

  const run = async (action: 'start' | 'prolong' | 'destroy') => {
    setBusy(action)
    try {
      if (action === 'destroy') {
        await gameApi.destroyContainer(gameId, challengeId)
        setView(null)
      } else {
        const info = action === 'start' ? await gameApi.startContainer(gameId, challengeId) : await gameApi.prolongContainer(gameId, challengeId)
        setView({ entry: info.entry, closeTime: info.expectStopAt })
      }
      onChanged?.()
    } catch (error) {
      notifyContainerError(error, 'player')
    } finally {
      setBusy(null)
    }
  }

  const remaining = view?.closeTime ? Date.parse(view.closeTime) - now : null
  const canProlong = remaining !== null && remaining <= CONTAINER_PROLONG_WINDOW_MS

  return (
    <Paper withBorder radius="md" p="sm" data-testid="container-controls" data-state={view ? 'running' : 'none'}>
      <Stack gap="xs">
        <Group gap={6}>
          <IconServer size={16} />
          <Text fw={600} size="sm">
            {t('题目实例')}
          </Text>
        </Group>
        {view ? (
          <>
            <Group gap="xs" wrap="nowrap">
              <Code style={{ flex: 1, overflowWrap: 'anywhere' }} data-testid="container-entry">
                {entryAddress(view.entry)}
              </Code>
              <CopyButton value={entryAddress(view.entry)}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('已复制') : t('复制')} withArrow>
                    <ActionIcon variant="subtle" onClick={copy} aria-label={t('复制入口')}>
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
            {remaining !== null && (
              <Text size="sm" c={remaining < CONTAINER_PROLONG_WINDOW_MS ? 'alert' : 'dimmed'} ff="monospace" data-testid="container-countdown">
                {remaining > 0 ? t('剩余 {{v0}}', { v0: formatDuration(remaining) }) : t('即将销毁')}
              </Text>
            )}
            <Group gap="xs">
              <Tooltip label={t('仅在剩余时间不足 10 分钟时可以延长')} disabled={canProlong} withArrow>
                <Button size="xs" variant="light" leftSection={<IconClockPlus size={14} />} disabled={!canProlong} loading={busy === 'prolong'} onClick={() => void run('prolong')} data-testid="container-prolong">
                  {t('延长时间')}
                </Button>
              </Tooltip>
              <Button size="xs" variant="light" color="alert" leftSection={<IconTrash size={14} />} loading={busy === 'destroy'} onClick={() => void run('destroy')} data-testid="container-destroy">
                {t('销毁实例')}
              </Button>
            </Group>
          </>
        ) : (
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('本题需要启动专属实例')}
            </Text>
            <Button size="xs" leftSection={<IconPlayerPlay size={14} />} loading={busy === 'start'} onClick={() => void run('start')} data-testid="container-start">
              {t('启动实例')}
            </Button>
          </Group>
        )}
        {view && GUID.test(view.entry) && (
          <Alert variant="light" color="blue" p="xs">
            <Text size="xs">{t('平台代理模式：使用 WebSocket 客户端（如 websocat）连接上面的地址。')}</Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  )
}

