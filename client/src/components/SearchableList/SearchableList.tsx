import type { ReactNode } from 'react'
import { Button, Center, CloseButton, Group, Loader, Pagination, Stack, Text, TextInput, Title } from '@mantine/core'
import { IconSearch } from '@tabler/icons-react'
import { LoadError } from '../LoadError/LoadError'
import type { SearchableListState } from './useSearchableList'
import { t } from '../../i18n'

interface SearchableListProps<T> {
  list: SearchableListState<T>
  title: string
  /** `admin-user` → admin-user-search, admin-user-search-submit, admin-user-search-clear. */
  searchTestId: string
  searchPlaceholder: string
  searchWidth: number
  pageTestId: string
  emptyTestId: string
  /** What the list holds, e.g. "用户" (empty text) and the total line. */
  emptyText: string
  totalText: (total: number) => string
  totalTestId?: string
  paginationTestId?: string
  /** Extra header buttons after the search button. */
  actions?: ReactNode
  children: ReactNode
}

/**
 * The frame of an admin list page (users, teams): title with a search box, the load error, a
 * loader, the rows (`children`, shown when there are any) or an empty text, and a footer with
 * the count and the pagination (paged mode only).
 */
export function SearchableList<T>(props: SearchableListProps<T>) {
  const { list } = props
  const { data, error, isLoading } = list.query
  return (
    <Stack gap="md" data-testid={props.pageTestId}>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>{props.title}</Title>
        <Group gap="xs" align="flex-end">
          <TextInput
            placeholder={props.searchPlaceholder}
            w={props.searchWidth}
            leftSection={<IconSearch size={16} />}
            rightSection={list.input ? <CloseButton size="sm" aria-label={t('清除搜索')} onClick={list.clear} data-testid={`${props.searchTestId}-search-clear`} /> : null}
            value={list.input}
            onChange={(event) => list.setInput(event.currentTarget.value)}
            onKeyDown={(event) => event.key === 'Enter' && list.search()}
            data-testid={`${props.searchTestId}-search`}
          />
          <Button variant="default" onClick={list.search} data-testid={`${props.searchTestId}-search-submit`}>
            {t('搜索')}
          </Button>
          {props.actions}
        </Group>
      </Group>
      <LoadError error={error} />
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : data && data.data.length > 0 ? (
        props.children
      ) : (
        <Text c="dimmed" ta="center" py="xl" data-testid={props.emptyTestId}>
          {list.hint ? t('没有与「{{hint}}」匹配的{{emptyText}}', { hint: list.hint, emptyText: props.emptyText }) : t('暂无{{emptyText}}', { emptyText: props.emptyText })}
        </Text>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid={props.totalTestId}>
          {list.hint ? t('搜索结果 {{v0}} 个（最多 30 个）', { v0: data?.length ?? 0 }) : props.totalText(data?.total ?? 0)}
        </Text>
        {!list.hint && list.pages > 1 && <Pagination total={list.pages} value={list.page} onChange={list.setPage} size="sm" data-testid={props.paginationTestId} />}
      </Group>
    </Stack>
  )
}
