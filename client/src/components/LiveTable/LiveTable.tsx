/**
 * A table of a live feed (./useLiveFeed.ts): rows newest first, rows that arrived live tinted for
 * a moment, the first page's error (server title verbatim), an empty state, and "load more" to
 * page back in history.
 */
import type { ReactNode } from 'react'
import { Alert, Button, Center, Group, Loader, Table, Text } from '@mantine/core'
import { IconAlertCircle, IconChevronsDown } from '@tabler/icons-react'
import type { LiveFeed, LiveRow } from './useLiveFeed'
import classes from './LiveTable.module.css'
import { LoadError } from '../LoadError/LoadError'
import { t } from '../../i18n'

export interface LiveColumn<T> {
  key: string
  header: ReactNode
  render: (item: T) => ReactNode
  width?: number | string
  /** Allow wrapping (long answers, messages); other cells stay on one line. */
  wrap?: boolean
  mono?: boolean
}

export interface LiveTableProps<T> {
  feed: LiveFeed<T>
  columns: LiveColumn<T>[]
  /** The rows to show: the feed's rows after client-side filters (default: all of them). */
  rows?: LiveRow<T>[]
  /** Extra attributes for a row (e.g. `data-status`). */
  rowProps?: (item: T) => Record<string, string | undefined>
  emptyText?: string
  /** Say when the history is exhausted (off for unpaged lists). */
  showEnd?: boolean
  testId?: string
}

/** How long a live row counts as new (its tint lasts 2.8 s). */
const FRESH_MS = 4_000

export function LiveTable<T>({ feed, columns, rows = feed.rows, rowProps, emptyText = t('暂无数据'), showEnd = true, testId = 'live-table' }: LiveTableProps<T>) {
  const now = Date.now()
  if (feed.error && feed.rows.length === 0) {
    return (
      <LoadError error={feed.error} icon testId={`${testId}-error`} />
    )
  }
  return (
    <>
      {feed.error && (
        <Alert color="alert" variant="light" icon={<IconAlertCircle />} data-testid={`${testId}-error`}>
          {feed.error.message}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={720} type="native">
        <Table highlightOnHover verticalSpacing={6} data-testid={testId} data-rows={rows.length}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.key} style={column.width !== undefined ? { width: column.width } : undefined}>
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const fresh = row.arrivedAt > 0 && now - row.arrivedAt < FRESH_MS
              return (
                <Table.Tr key={row.key} className={fresh ? classes.fresh : undefined} data-testid={`${testId}-row`} data-fresh={fresh ? 'true' : undefined} {...rowProps?.(row.item)}>
                  {columns.map((column) => (
                    <Table.Td key={column.key} className={[column.wrap ? classes.wrap : classes.cell, column.mono ? classes.mono : ''].join(' ')}>
                      {column.render(row.item)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              )
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {feed.isLoading ? (
        <Center py="lg">
          <Loader size="sm" />
        </Center>
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid={`${testId}-empty`}>
          {feed.rows.length === 0 ? emptyText : t('没有符合筛选条件的记录')}
        </Text>
      ) : null}
      {feed.moreError && (
        <Alert color="alert" variant="light" icon={<IconAlertCircle />} data-testid={`${testId}-more-error`}>
          {feed.moreError.message}
        </Alert>
      )}
      {!feed.isLoading && feed.rows.length > 0 && (
        <Group justify="center">
          {feed.hasMore ? (
            <Button variant="subtle" leftSection={<IconChevronsDown size={16} />} loading={feed.loadingMore} onClick={() => void feed.loadMore()} data-testid={`${testId}-more`}>
              {t('加载更多')}
            </Button>
          ) : showEnd ? (
            <Text size="sm" c="dimmed" data-testid={`${testId}-end`}>
              {t('没有更早的记录了')}
            </Text>
          ) : null}
        </Group>
      )}
    </>
  )
}
