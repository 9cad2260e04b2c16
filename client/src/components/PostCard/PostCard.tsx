import { Avatar, Badge, Card, Group, Stack, Text, Title } from '@mantine/core'
import { IconPinned } from '@tabler/icons-react'
import dayjs from 'dayjs'
import { Link } from 'react-router-dom'
import type { PostInfoModel } from '@flagwave/shared/schemas/posts'
import { markdownToText } from '../../utils/markdownText'
import classes from './PostCard.module.css'

/** One post of a list: title, pin, tags, summary (as plain text), author and time. */
export function PostCard({ post }: { post: PostInfoModel }) {
  return (
    <Card withBorder radius="md" padding="lg" className={classes.card} data-testid="post-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} className={classes.title}>
            <Link to={`/posts/${post.id}`} className={classes.link}>
              {post.title}
            </Link>
          </Title>
          {post.isPinned && (
            <Badge leftSection={<IconPinned size={12} />} variant="light">
              置顶
            </Badge>
          )}
        </Group>
        {post.tags && post.tags.length > 0 && (
          <Group gap={6}>
            {post.tags.map((tag) => (
              <Badge key={tag} size="sm" variant="outline">
                {tag}
              </Badge>
            ))}
          </Group>
        )}
        {post.summary && (
          <Text size="sm" lineClamp={4} className={classes.summary}>
            {markdownToText(post.summary)}
          </Text>
        )}
        <Group gap="xs" justify="flex-end">
          {post.authorName && (
            <Group gap={6}>
              <Avatar src={post.authorAvatar ?? undefined} size={20} radius="xl" />
              <Text size="xs" c="dimmed">
                {post.authorName}
              </Text>
            </Group>
          )}
          <Text size="xs" c="dimmed">
            {dayjs(post.time).format('YYYY-MM-DD HH:mm')}
          </Text>
        </Group>
      </Stack>
    </Card>
  )
}
