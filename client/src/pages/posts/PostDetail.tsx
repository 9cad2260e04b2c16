import { Avatar, Badge, Button, Center, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { IconArrowLeft, IconEdit, IconPinned } from '@tabler/icons-react'
import { Link, useParams } from 'react-router-dom'
import { skipToken, useQuery } from '@tanstack/react-query'
import { postsApi } from '../../api/posts'
import { queryKeys } from '../../api/queryKeys'
import { Markdown } from '../../components/Markdown/Markdown'
import { StatusScreen } from '../../components/StatusScreen/StatusScreen'
import { hasRole, useRole } from '../../stores/session'
import { t } from '../../i18n'
import { formatTime } from '../../components/GameTime/GameTime'
import { READING_WIDTH } from '../../layouts/widths'

/** One post (GET /api/posts/{id}): its Markdown content, rendered sanitised. */
export default function PostDetail() {
  const { postId = '' } = useParams()
  const admin = hasRole(useRole(), 'Admin')
  const { data: post, error, isLoading } = useQuery({ queryKey: queryKeys.posts.detail(postId ?? ''), queryFn: postId ? () => postsApi.get(postId) : skipToken })

  if (isLoading)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    )
  if (!post)
    return (
      <StatusScreen code="404" title={error?.message ?? t('文章不存在')} description={t('文章可能已被删除')} testId="post-not-found">
        <Button component={Link} to="/posts" variant="light" leftSection={<IconArrowLeft size={16} />}>
          {t('返回文章列表')}
        </Button>
      </StatusScreen>
    )

  return (
    <Stack gap="md" maw={READING_WIDTH} mx="auto" data-testid="post-detail-page" data-post-id={post.id}>
      <Group justify="space-between">
        <Button component={Link} to="/posts" variant="subtle" size="xs" leftSection={<IconArrowLeft size={14} />}>
          {t('文章列表')}
        </Button>
        {admin && (
          <Button component={Link} to={`/posts/${post.id}/edit`} variant="light" size="xs" leftSection={<IconEdit size={14} />} data-testid="post-edit">
            {t('编辑')}
          </Button>
        )}
      </Group>
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          {post.isPinned && <IconPinned size={24} color="var(--mantine-primary-color-filled)" data-testid="post-pinned-icon" />}
          <Title order={1} data-testid="post-title">
            {post.title}
          </Title>
        </Group>
        <Group gap="sm">
          {post.authorName && (
            <Group gap={6}>
              <Avatar src={post.authorAvatar ?? undefined} size={22} radius="xl" color="brand">
                {post.authorName.slice(0, 1).toUpperCase()}
              </Avatar>
              <Text size="sm" c="dimmed">
                {post.authorName}
              </Text>
            </Group>
          )}
          <Text size="sm" c="dimmed">
            {formatTime(post.time)}
          </Text>
          {(post.tags ?? []).map((tag) => (
            <Badge key={tag} size="sm" variant="outline">
              {tag}
            </Badge>
          ))}
        </Group>
      </Stack>
      <Divider />
      <Markdown source={post.content} testId="post-content" />
    </Stack>
  )
}
