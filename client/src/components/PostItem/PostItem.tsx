import { ActionIcon, Avatar, Badge, Card, Group, Stack, Text, Title } from '@mantine/core'
import { IconEdit, IconPin, IconPinned, IconPinnedOff } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import { LazyTooltip as Tooltip } from '../HintTooltip/LazyTooltip'
import type { PostInfoModel } from '@flagwave/shared/schemas/posts'
import { Markdown } from '../Markdown/Markdown'
import classes from './PostItem.module.css'
import { t } from '../../i18n'
import { formatTime } from '../GameTime/GameTime'

export interface PostItemProps {
  post: PostInfoModel
  /** Admin controls: pin toggle and edit link. */
  admin?: boolean
  onTogglePin?: (post: PostInfoModel) => void
  pinBusy?: boolean
}

/**
 * One post of a list: a pin icon when pinned, title, tags, the summary rendered as sanitised
 * Markdown, author and time; for admins a pin toggle and an edit link.
 */
export function PostItem({ post, admin = false, onTogglePin, pinBusy = false }: PostItemProps) {
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      className={[classes.card, post.isPinned ? classes.pinned : ''].join(' ')}
      data-testid="post-card"
      data-post-id={post.id}
      data-pinned={post.isPinned ? 'true' : 'false'}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="nowrap" align="center" style={{ minWidth: 0 }}>
            {post.isPinned && (
              <IconPinned size={20} color="var(--mantine-primary-color-filled)" data-testid="post-pinned-icon" style={{ flexShrink: 0 }} title={t('置顶')} aria-label={t('置顶')} role="img" />
            )}
            <Title order={3} className={classes.title} lineClamp={2}>
              <Link to={`/posts/${post.id}`} className={classes.link} data-testid="post-title">
                {post.title}
              </Link>
            </Title>
          </Group>
          {admin && (
            <Group gap={4} wrap="nowrap">
              <Tooltip label={post.isPinned ? t('取消置顶') : t('置顶')} withArrow>
                <ActionIcon
                  variant={post.isPinned ? 'light' : 'subtle'}
                  loading={pinBusy}
                  onClick={() => onTogglePin?.(post)}
                  aria-label={post.isPinned ? t('取消置顶') : t('置顶')}
                  data-testid="post-pin-toggle"
                >
                  {post.isPinned ? <IconPinnedOff size={18} /> : <IconPin size={18} />}
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('编辑')} withArrow>
                <ActionIcon component={Link} to={`/posts/${post.id}/edit`} variant="subtle" aria-label={t('编辑')} data-testid="post-edit-link">
                  <IconEdit size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
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
        {post.summary && <Markdown source={post.summary} className={classes.summary} testId="post-summary" />}
        <Group gap="xs" justify="flex-end">
          {post.authorName && (
            <Group gap={6}>
              <Avatar src={post.authorAvatar ?? undefined} size={20} radius="xl" color="brand">
                {post.authorName.slice(0, 1).toUpperCase()}
              </Avatar>
              <Text size="xs" c="dimmed" data-testid="post-author">
                {post.authorName}
              </Text>
            </Group>
          )}
          <Text size="xs" c="dimmed">
            {formatTime(post.time)}
          </Text>
        </Group>
      </Stack>
    </Card>
  )
}
