import { Center, Loader, Stack, Text, Title } from '@mantine/core'
import { IconNews } from '@tabler/icons-react'
import { infoApi, LATEST_POSTS_KEY } from '../api/info'
import { useQuery } from '../api/useQuery'
import { PostCard } from '../components/PostCard/PostCard'
import { platformName, useGlobalConfig } from '../stores/config'

/** Home: the platform's name and slogan and the latest posts (GET /api/posts/latest). */
export default function Home() {
  const config = useGlobalConfig()
  const { data: posts, error, isLoading } = useQuery(LATEST_POSTS_KEY, infoApi.latestPosts)

  return (
    <Stack gap="xl" maw={960} mx="auto" data-testid="home-page">
      <Stack gap={4} align="center" py="xl">
        <Title order={1} ff="monospace" data-testid="home-title">
          {platformName(config)}
        </Title>
        <Text c="dimmed" size="lg">
          {config.slogan}
        </Text>
      </Stack>
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : posts && posts.length > 0 ? (
        <Stack gap="md" data-testid="latest-posts">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} />
          ))}
        </Stack>
      ) : (
        <Stack align="center" gap="xs" py="xl" c="dimmed" data-testid="posts-empty" data-error={error ? 'true' : 'false'}>
          <IconNews size={48} stroke={1.2} />
          <Text c="dimmed">暂无公告</Text>
        </Stack>
      )}
    </Stack>
  )
}
