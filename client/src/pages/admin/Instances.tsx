/**
 * admin/Instances: every team container (GET /api/admin/instances, refreshed every 10 s and on
 * focus) with team, challenge, image, entry (ip:port), start time and the remaining time counting
 * down; destroying one asks first (DELETE /api/admin/instances/{containerGuid}).
 */
import { useMemo, useState } from 'react'
import { ActionIcon, Alert, Avatar, Badge, Code, Group, Loader, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { IconAlertCircle, IconCopy, IconRefresh, IconSearch, IconTrash } from '@tabler/icons-react'
import type { ContainerInstanceModel } from '@flagwave/shared/schemas/admin'
import type { ArrayResponse } from '@flagwave/shared/schemas/common'
import { adminConfigApi } from '../../api/adminConfig'
import { useQuery } from '@tanstack/react-query'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { copyToClipboard } from '../../components/CopyableText/CopyableText'
import { ChallengeTagBadge } from '../../components/ChallengeTag/ChallengeTag'
import { formatDuration, formatTime, useNow } from '../../components/GameTime/GameTime'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'
import { byText, byTime, SortableTh, useSortedRows, type Sorters } from '../../components/SortableTh/SortableTh'

const WARN_MS = 10 * 60_000

const entryOf = (i: ContainerInstanceModel): string => `${i.ip}:${i.port}`

function Remaining({ until, now }: { until: string; now: number }) {
  const left = Date.parse(until) - now
  if (left <= 0)
    return (
      <Badge color="alert" variant="light" data-testid="instance-remaining" data-expired="true">
        {t('已到期')}
      </Badge>
    )
  return (
    <Text size="sm" ff="monospace" c={left < WARN_MS ? 'orange' : undefined} data-testid="instance-remaining" data-ms={left}>
      {formatDuration(left)}
    </Text>
  )
}

const queryKey = queryKeys.admin.instances

const INSTANCE_SORTERS: Sorters<ContainerInstanceModel, 'team' | 'challenge' | 'started' | 'remaining'> = {
  team: (a, b) => byText(a.team?.name, b.team?.name),
  challenge: (a, b) => byText(a.challenge?.title, b.challenge?.title),
  started: (a, b) => byTime(a.startedAt, b.startedAt),
  remaining: (a, b) => byTime(a.expectStopAt, b.expectStopAt),
}

export default function Instances() {
  const query = useQuery<ArrayResponse<ContainerInstanceModel>>({ queryKey, queryFn: adminConfigApi.instances })
  const now = useNow()
  const [search, setSearch] = useState('')
  const [destroying, setDestroying] = useState<string | null>(null)

  const needle = search.trim().toLowerCase()
  const instances = useMemo(() => {
    const all = query.data?.data ?? []
    if (!needle) return all
    return all.filter((i) => [i.team?.name, i.challenge?.title, i.image, entryOf(i), i.containerId].some((v) => v?.toLowerCase().includes(needle)))
  }, [query.data, needle])
  // The whole list is here: newest first unless the header asks otherwise.
  const { sorted, sort, toggle } = useSortedRows(instances, INSTANCE_SORTERS, { key: 'started', direction: 'desc' })

  const destroy = async (instance: ContainerInstanceModel) => {
    const ok = await confirmDialog({
      title: t('销毁容器实例'),
      message: (
        <Stack gap={4}>
          <Text size="sm">
            {t('确定销毁 {{team}} 的「{{challenge}}」容器吗？', { team: instance.team?.name ?? t('未知队伍'), challenge: instance.challenge?.title ?? t('未知题目') })}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {instance.image} · {entryOf(instance)}
          </Text>
        </Stack>
      ),
      confirmLabel: t('销毁'),
      danger: true,
    })
    if (!ok) return
    setDestroying(instance.containerGuid)
    try {
      await adminConfigApi.destroyInstance(instance.containerGuid)
      notifySuccess(t('容器实例已销毁'))
      queryClient.setQueryData<ArrayResponse<ContainerInstanceModel>>(queryKey, (current) => {
        const data = (current?.data ?? []).filter((i) => i.containerGuid !== instance.containerGuid)
        return { data, length: data.length, total: data.length }
      })
      void query.refetch()
    } catch (error) {
      notifyError(error, t('销毁失败'))
      void query.refetch()
    } finally {
      setDestroying(null)
    }
  }

  const copy = async (text: string) => {
    if (await copyToClipboard(text)) notifySuccess(t('已复制到剪贴板'))
    else notifyError(new Error(t('复制失败，请手动选择文本复制')))
  }

  return (
    <Stack gap="md" data-testid="admin-instances-page">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm">
          <Title order={2}>{t('实例管理')}</Title>
          <Badge variant="light" data-testid="instances-count">
            {query.data ? t('{{total}} 个实例', { total: query.data.total }) : '…'}
          </Badge>
        </Group>
        <Group gap="xs">
          <TextInput size="xs" w={240} leftSection={<IconSearch size={14} />} placeholder={t('搜索队伍、题目、镜像或入口')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} data-testid="instances-search" />
          <Tooltip label={t('刷新')} withArrow>
            <ActionIcon variant="subtle" onClick={() => void query.refetch()} loading={query.isFetching} aria-label={t('刷新')} data-testid="instances-refresh">
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>

      {query.error && (
        <Alert color="alert" variant="light" icon={<IconAlertCircle />} title={query.data ? undefined : t('加载失败')} data-testid="instances-error">
          {query.error.message}
        </Alert>
      )}

      {query.isLoading ? (
        <Loader />
      ) : (
        <Table.ScrollContainer minWidth={900} type="native">
          <Table highlightOnHover verticalSpacing="xs" data-testid="instances-table">
            <Table.Thead>
              <Table.Tr>
                <SortableTh column="team" sort={sort} onSort={(key) => toggle(key)} testId="instances-sort-team">
                  {t('队伍')}
                </SortableTh>
                <SortableTh column="challenge" sort={sort} onSort={(key) => toggle(key)} testId="instances-sort-challenge">
                  {t('题目')}
                </SortableTh>
                <Table.Th>{t('镜像')}</Table.Th>
                <Table.Th>{t('入口')}</Table.Th>
                <SortableTh column="started" sort={sort} onSort={(key) => toggle(key, 'desc')} testId="instances-sort-started">
                  {t('启动时间')}
                </SortableTh>
                <SortableTh column="remaining" sort={sort} onSort={(key) => toggle(key)} testId="instances-sort-remaining">
                  {t('剩余时间')}
                </SortableTh>
                <Table.Th w={60} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((i) => (
                <Table.Tr key={i.containerGuid} data-testid="instance-row" data-guid={i.containerGuid}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Avatar src={i.team?.avatar ?? undefined} size={26} radius="xl" color="brand">
                        {(i.team?.name ?? '?').slice(0, 1).toUpperCase()}
                      </Avatar>
                      <Text size="sm" fw={500} data-testid="instance-team">
                        {i.team?.name ?? '—'}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {i.challenge && <ChallengeTagBadge tag={i.challenge.tag} size="xs" />}
                      <Text size="sm" data-testid="instance-challenge">
                        {i.challenge?.title ?? '—'}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={t('容器 ID {{containerId}}', { containerId: i.containerId })} withArrow openDelay={300}>
                      <Code data-testid="instance-image">{i.image}</Code>
                    </Tooltip>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm" ff="monospace" data-testid="instance-entry">
                        {entryOf(i)}
                      </Text>
                      <ActionIcon size="sm" variant="subtle" onClick={() => void copy(entryOf(i))} aria-label={t('复制入口')}>
                        <IconCopy size={14} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatTime(i.startedAt, 'MM-DD HH:mm:ss')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Remaining until={i.expectStopAt} now={now} />
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={t('销毁')} withArrow>
                      <ActionIcon color="alert" variant="subtle" loading={destroying === i.containerGuid} onClick={() => void destroy(i)} aria-label={t('销毁')} data-testid="instance-destroy">
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {instances.length === 0 && (
            <Text c="dimmed" ta="center" py="lg" data-testid="instances-empty">
              {needle && (query.data?.data.length ?? 0) > 0 ? t('没有符合条件的实例') : t('当前没有运行中的容器实例')}
            </Text>
          )}
        </Table.ScrollContainer>
      )}
    </Stack>
  )
}
