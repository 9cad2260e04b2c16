import { Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import { useQuery } from '@tanstack/react-query'
import { pinnedFirst, postsApi } from '../../api/posts'
import { queryKeys } from '../../api/queryKeys'
import { PostItem } from '../../components/PostItem/PostItem'
import { hasRole, useRole } from '../../stores/session'
import { usePinToggle } from './usePinToggle'
import { t } from '../../i18n'
import { READING_WIDTH } from '../../layouts/widths'

/** All posts (GET /api/posts), pinned first; admins can pin, edit and write posts. */
export default function PostList() {
  const admin = hasRole(useRole(), 'Admin')
  const { data: posts, error, isLoading } = useQuery({ queryKey: queryKeys.posts.list, queryFn: postsApi.list })
  const { toggle, busyId } = usePinToggle()

  return (
    <Stack gap="md" maw={READING_WIDTH} mx="auto" data-testid="posts-page">
      <Group justify="space-between">
        <Title order={2}>{t('文章')}</Title>
        {admin && (
          <Button component={Link} to="/posts/new/edit" leftSection={<IconPlus size={16} />} data-testid="post-new">
            {t('新建文章')}
          </Button>
        )}
      </Group>
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : posts && posts.length > 0 ? (
        <Stack gap="md" data-testid="post-list">
          {pinnedFirst(posts).map((post) => (
            <PostItem key={post.id} post={post} admin={admin} onTogglePin={(p) => void toggle(p)} pinBusy={busyId === post.id} />
          ))}
        </Stack>
      ) : (
        <Text c="dimmed" ta="center" py="xl" data-testid="posts-empty">
          {error ? error.message : t('暂无文章')}
        </Text>
      )}
    </Stack>
  )
}
