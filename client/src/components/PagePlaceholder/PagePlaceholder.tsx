import type { ReactNode } from 'react'
import { Badge, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { skipToken, useQuery } from '@tanstack/react-query'
import { pathKey } from '../../api/queryKeys'
import { http } from '../../api/http'
import { LoadError } from '../LoadError/LoadError'

export interface PagePlaceholderProps {
  title: ReactNode
  /** The endpoint whose data this screen shows; fetched and summarised until the screen is built. */
  endpoint?: string | null
  description?: ReactNode
  testId?: string
  children?: ReactNode
}

function summarise(data: unknown): string {
  if (data === undefined || data === '') return '无内容'
  if (Array.isArray(data)) return `${data.length} 项`
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>
    if (Array.isArray(record.data) && typeof record.total === 'number') return `${record.total} 项`
    return '已加载'
  }
  return String(data)
}

/**
 * A minimal screen for routes whose full UI is still being built: the title, and the state of
 * the screen's main data (loading, loaded, or the server's error title).
 */
export function PagePlaceholder({ title, endpoint = null, description, testId, children }: PagePlaceholderProps) {
  const { data, error, isLoading } = useQuery({ queryKey: pathKey(endpoint ?? '/'), queryFn: endpoint === null ? skipToken : () => http.get(endpoint) })
  return (
    <Stack gap="md" data-testid={testId ?? 'page-placeholder'}>
      <Title order={2}>{title}</Title>
      {description && <Text c="dimmed">{description}</Text>}
      {endpoint && (
        <Group gap="xs">
          {isLoading ? (
            <>
              <Loader size="sm" />
              <Text size="sm" c="dimmed">
                正在加载…
              </Text>
            </>
          ) : error ? (
            <LoadError error={error} w="100%" />
          ) : (
            <Badge variant="light">{summarise(data)}</Badge>
          )}
        </Group>
      )}
      {children}
    </Stack>
  )
}

export default PagePlaceholder
