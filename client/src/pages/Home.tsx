import { Anchor, Center, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { IconArrowRight, IconNews } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import { useQuery } from '@tanstack/react-query'
import { pinnedFirst, postsApi } from '../api/posts'
import { queryKeys } from '../api/queryKeys'
import { PostItem } from '../components/PostItem/PostItem'
import { platformName, sloganText, useGlobalConfig } from '../api/globalConfig'
import { t } from '../i18n'
import { HomeGames } from '../components/HomeGames/HomeGames'
import { READING_WIDTH } from '../layouts/widths'

/** Home: the platform's name and slogan, the running and upcoming games, and the latest posts (GET /api/posts/latest), pinned first. */
export default function Home() {
  const config = useGlobalConfig()
  const { data: posts, error, isLoading } = useQuery({ queryKey: queryKeys.posts.latest, queryFn: postsApi.latest })

  return (
    <Stack gap="xl" maw={READING_WIDTH} mx="auto" data-testid="home-page">
      <Stack gap={4} align="center" py="xl">
        <Title order={1} ff="monospace" data-testid="home-title">
          {platformName(config)}
        </Title>
        <Text c="dimmed" size="lg">
          {sloganText(config)}
        </Text>
      </Stack>
      <HomeGames />
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : posts && posts.length > 0 ? (
        <Stack gap="md" data-testid="latest-posts">
          <Group justify="space-between">
            <Title order={3}>{t('最新文章')}</Title>
            <Anchor component={Link} to="/posts" size="sm" data-testid="home-all-posts">
              <Group gap={4}>
                {t('全部文章')}
                <IconArrowRight size={14} />
              </Group>
            </Anchor>
          </Group>
          {pinnedFirst(posts).map((post) => (
            <PostItem key={post.id} post={post} />
          ))}
        </Stack>
      ) : (
        <Stack align="center" gap="xs" py="xl" c="dimmed" data-testid="posts-empty" data-error={error ? 'true' : 'false'}>
          <IconNews size={48} stroke={1.2} />
          <Text c="dimmed">{t('暂无公告')}</Text>
        </Stack>
      )}
    </Stack>
  )
}
