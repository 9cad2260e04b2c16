/**
 * The editor's test container of a container challenge (docs/compatibility.md#group-edit): start
 * (POST …/container → ContainerInfoModel) and stop (DELETE). Shows the entry with a copyable
 * connection hint: `host:port`, or, with the platform proxy (entry = container GUID), the
 * WebSocket address `/api/proxy/noinst/{entry}` (docs/compatibility.md#group-proxy). Server errors (including 404/400 while
 * the endpoint is unavailable) are shown with their title and leave the panel usable.
 */
import { useEffect, useState } from 'react'
import { ActionIcon, Badge, Button, Code, CopyButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core'
import { IconCheck, IconCopy, IconPlayerPlay, IconPlayerStop, IconServer } from '@tabler/icons-react'
import type { ContainerInfoModel } from '@flagwave/shared/schemas/challenges'
import { editApi } from '../../api/edit'
import { formatTime } from '../GameTime/GameTime'
import { notifyError, notifySuccess } from '../../utils/notify'
import { notifyContainerError } from '../../utils/containerFailure'
import { t } from '../../i18n'

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The address of a test container entry, and a command that connects to it. */
function testContainerAccess(entry: string): { address: string; hint: string } {
  if (GUID.test(entry)) {
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws'
    const address = `${scheme}://${window.location.host}/api/proxy/noinst/${entry}`
    return { address, hint: `websocat --binary ${address}` }
  }
  const separator = entry.lastIndexOf(':')
  const host = separator > 0 ? entry.slice(0, separator) : entry
  const port = separator > 0 ? entry.slice(separator + 1) : ''
  return { address: entry, hint: port ? `nc ${host} ${port}` : entry }
}

function Copyable({ value, testId }: { value: string; testId: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ flex: 1, overflowWrap: 'anywhere' }} data-testid={testId}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('已复制') : t('复制')} withArrow>
            <ActionIcon variant="subtle" onClick={copy} aria-label={t('复制')} data-testid={`${testId}-copy`}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  )
}

export interface TestContainerPanelProps {
  gameId: number
  challengeId: number
  /** The challenge's `testContainer` as last loaded. */
  container: ContainerInfoModel | null
  /** Called after a start or stop (e.g. to refetch the challenge). */
  onChanged?: () => void
}

export function TestContainerPanel({ gameId, challengeId, container, onChanged }: TestContainerPanelProps) {
  const [view, setView] = useState<ContainerInfoModel | null>(container)
  const [busy, setBusy] = useState<'start' | 'stop' | null>(null)
  useEffect(() => setView(container), [container])

  const start = async () => {
    setBusy('start')
    try {
      setView(await editApi.challenges.startContainer(gameId, challengeId))
      notifySuccess(t('测试容器已启动'))
      onChanged?.()
    } catch (error) {
      notifyContainerError(error, 'editor', t('测试容器启动失败'))
    } finally {
      setBusy(null)
    }
  }
  const stop = async () => {
    setBusy('stop')
    try {
      await editApi.challenges.stopContainer(gameId, challengeId)
      setView(null)
      notifySuccess(t('测试容器已销毁'))
      onChanged?.()
    } catch (error) {
      notifyError(error, t('测试容器销毁失败'))
    } finally {
      setBusy(null)
    }
  }

  const access = view ? testContainerAccess(view.entry) : null
  return (
    <Paper withBorder radius="md" p="sm" data-testid="test-container" data-state={view ? 'running' : 'none'}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap={6}>
            <IconServer size={16} />
            <Text fw={600} size="sm">
              {t('测试容器')}
            </Text>
            {view && (
              <Badge size="sm" variant="light" color={view.status === 'Running' ? 'brand' : 'gray'}>
                {view.status}
              </Badge>
            )}
          </Group>
          <Group gap="xs">
            <Button size="xs" leftSection={<IconPlayerPlay size={14} />} loading={busy === 'start'} disabled={busy === 'stop'} onClick={() => void start()} data-testid="test-container-start">
              {view ? t('重新启动') : t('启动')}
            </Button>
            <Button size="xs" variant="light" color="alert" leftSection={<IconPlayerStop size={14} />} loading={busy === 'stop'} disabled={busy === 'start'} onClick={() => void stop()} data-testid="test-container-stop">
              {t('销毁')}
            </Button>
          </Group>
        </Group>
        {view && access ? (
          <>
            <Copyable value={access.address} testId="test-container-entry" />
            <Text size="xs" c="dimmed">
              {t('连接方式：')}
            </Text>
            <Copyable value={access.hint} testId="test-container-hint" />
            <Text size="xs" c="dimmed">
              {t('启动于 {{start}}，预计于 {{stop}} 销毁', { start: formatTime(view.startedAt, 'YYYY-MM-DD HH:mm:ss'), stop: formatTime(view.expectStopAt, 'YYYY-MM-DD HH:mm:ss') })}
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('保存容器配置后可启动测试容器，用于验证镜像与端口；动态题目的测试容器使用测试 flag。')}
          </Text>
        )}
      </Stack>
    </Paper>
  )
}

