/**
 * admin/Logs: the audit log, newest first — a live tail of `/hub/admin` (`ReceivedLog`) over the
 * paged `GET /api/admin/logs` (level filter on the server: Information / Warning / Error / All).
 * Level and task-status badges, pause/resume with the number of waiting lines, load more.
 */
import { useMemo, useState } from 'react'
import { Badge, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core'
import { IconSearch } from '@tabler/icons-react'
import type { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { adminConfigApi, LOG_LEVEL_FILTERS, type LogLevelFilter } from '../../api/adminConfig'
import { queryKeys } from '../../api/queryKeys'
import { useHubEvent } from '../../realtime/hooks'
import { LiveTable, type LiveColumn } from '../../components/LiveTable/LiveTable'
import { DEFAULT_PAGE_SIZE, timeMs, useLiveFeed } from '../../components/LiveTable/useLiveFeed'
import { LiveFeedControls } from '../../components/LiveFeedControls/LiveFeedControls'
import { formatTime } from '../../components/GameTime/GameTime'
import { t } from '../../i18n'
import { FixedSortLabel } from '../../components/SortableTh/SortableTh'

const LEVEL_META: Record<string, { label: string; color: string }> = {
  Information: { label: 'INFO', color: 'brand' },
  Warning: { label: 'WARN', color: 'yellow' },
  Error: { label: 'ERROR', color: 'alert' },
  Fatal: { label: 'FATAL', color: 'grape' },
}

const LEVEL_LABELS: Record<LogLevelFilter, string> = { All: t('全部'), Information: t('信息'), Warning: t('警告'), Error: t('错误') }

/** TaskStatus names (docs/compatibility.md#administration-shapes). */
const STATUS_META: Record<string, { label: string; color: string }> = {
  Success: { label: t('成功'), color: 'brand' },
  Failed: { label: t('失败'), color: 'alert' },
  Pending: { label: t('等待'), color: 'gray' },
  Denied: { label: t('拒绝'), color: 'orange' },
  NotFound: { label: t('未找到'), color: 'yellow' },
  Duplicate: { label: t('重复'), color: 'blue' },
  Exit: { label: t('退出'), color: 'gray' },
}

function LevelBadge({ level }: { level: string | null }) {
  const meta = (level && LEVEL_META[level]) || { label: level ?? '—', color: 'gray' }
  return (
    <Badge size="sm" variant="light" color={meta.color} radius="sm" ff="monospace" data-testid="log-level" data-level={level ?? ''}>
      {meta.label}
    </Badge>
  )
}

function StatusBadge({ status }: { status: string | null }) {
  if (!status) return <Text c="dimmed" span size="sm">—</Text>
  const meta = STATUS_META[status] ?? { label: status, color: 'gray' }
  return (
    <Badge size="sm" variant="dot" color={meta.color} data-testid="log-status" data-status={status}>
      {meta.label}
    </Badge>
  )
}

const logKey = (log: LogMessageModel): string => `${timeMs(log.time)}|${log.level}|${log.name}|${log.ip}|${log.msg}`

const COLUMNS: LiveColumn<LogMessageModel>[] = [
  // Newest first, as the server pages them and the feed inserts them.
  { key: 'time', header: <FixedSortLabel label={t('时间')} direction="desc" testId="logs-sort-time" />, width: 160, render: (l) => formatTime(l.time, 'MM-DD HH:mm:ss') },
  { key: 'level', header: t('级别'), width: 90, render: (l) => <LevelBadge level={l.level} /> },
  { key: 'name', header: t('用户'), render: (l) => l.name || <Text c="dimmed" span size="sm">—</Text> },
  { key: 'ip', header: 'IP', mono: true, render: (l) => l.ip || <Text c="dimmed" span size="sm">—</Text> },
  { key: 'msg', header: t('消息'), wrap: true, render: (l) => <span data-testid="log-message">{l.msg}</span> },
  { key: 'status', header: t('状态'), width: 100, render: (l) => <StatusBadge status={l.status} /> },
]

export default function Logs() {
  const [level, setLevel] = useState<LogLevelFilter>('All')
  const [search, setSearch] = useState('')

  const { connected } = useHubEvent('admin', 'ReceivedLog', (log) => feed.push(log))
  const feed = useLiveFeed<LogMessageModel>({
    queryKey: queryKeys.admin.logs(level, DEFAULT_PAGE_SIZE),
    fetchPage: (count, skip) => adminConfigApi.logs(level, count, skip),
    keyOf: logKey,
    timeOf: (l) => timeMs(l.time),
    accepts: (l) => level === 'All' || l.level === level,
    live: connected,
  })

  const needle = search.trim().toLowerCase()
  const rows = useMemo(
    () => (needle ? feed.rows.filter((r) => [r.item.msg, r.item.name, r.item.ip].some((v) => v?.toLowerCase().includes(needle))) : feed.rows),
    [feed.rows, needle],
  )

  return (
    <Stack gap="md" data-testid="admin-logs-page">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={2}>{t('系统日志')}</Title>
          <SegmentedControl
            size="xs"
            value={level}
            onChange={(value) => setLevel(value as LogLevelFilter)}
            data={LOG_LEVEL_FILTERS.map((value) => ({ value, label: LEVEL_LABELS[value] }))}
            data-testid="log-level-filter"
          />
          <TextInput size="xs" w={200} leftSection={<IconSearch size={14} />} placeholder={t('在已加载日志中搜索')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} data-testid="log-search" />
        </Group>
        <LiveFeedControls feed={feed} namespace="admin" shown={rows.length} testId="logs-live" />
      </Group>
      <LiveTable feed={feed} rows={rows} columns={COLUMNS} rowProps={(l) => ({ 'data-level': l.level ?? '' })} emptyText={t('暂无日志')} testId="logs-table" />
    </Stack>
  )
}
