import { useMemo, useState } from 'react'
import { Button, Center, Group, Loader, Stack, Title } from '@mantine/core'
import { IconArrowLeft, IconEye } from '@tabler/icons-react'
import { Link, useNavigate, useParams } from 'react-router-dom'
import { skipToken, useQuery } from '@tanstack/react-query'
import { forgetPost, invalidatePosts, postsApi } from '../../api/posts'
import { queryKeys } from '../../api/queryKeys'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { EMPTY_POST, PostEditor, type PostEditValues } from '../../components/PostEditor/PostEditor'
import { StatusScreen } from '../../components/StatusScreen/StatusScreen'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

/** Post editor (Admin): `new` creates (POST /api/edit/posts), otherwise PUT/DELETE /api/edit/posts/{id}. */
export default function PostEdit() {
  const { postId = 'new' } = useParams()
  const isNew = postId.toLowerCase() === 'new'
  const navigate = useNavigate()
  const [saving, setSaving] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const { data: post, error, isLoading } = useQuery({ queryKey: queryKeys.posts.detail(postId), queryFn: isNew ? skipToken : () => postsApi.get(postId), refetchInterval: false, refetchOnWindowFocus: false })

  const initial = useMemo<PostEditValues>(
    () => (post ? { title: post.title, summary: post.summary, content: post.content, tags: post.tags ?? [], isPinned: post.isPinned } : EMPTY_POST),
    [post],
  )

  const save = async (values: PostEditValues): Promise<boolean> => {
    setSaving(true)
    try {
      if (isNew) {
        const id = await postsApi.create(values)
        invalidatePosts(id)
        notifySuccess(t('文章已创建'))
        navigate(`/posts/${id}/edit`, { replace: true })
        return true
      }
      // This server treats a PUT whose pin differs from the stored one as a pin toggle only
      // (docs/compatibility.md#deliberate-departures); save the text first with the stored pin, then flip the pin.
      const stored = post?.isPinned ?? false
      let updated = await postsApi.update(postId, { ...values, isPinned: stored })
      if (values.isPinned !== stored) updated = await postsApi.update(postId, { ...values, isPinned: values.isPinned })
      invalidatePosts(postId, updated)
      notifySuccess(t('文章已保存'))
      return true
    } catch (cause) {
      notifyError(cause, t('保存失败'))
      return false
    } finally {
      setSaving(false)
    }
  }

  const remove = async () => {
    const ok = await confirmDialog({ title: t('删除文章'), message: t('确定删除文章「{{v0}}」吗？此操作不可恢复。', { v0: post?.title ?? postId }), confirmLabel: t('删除'), danger: true })
    if (!ok) return
    setDeleting(true)
    try {
      await postsApi.remove(postId)
      forgetPost(postId)
      notifySuccess(t('文章已删除'))
      navigate('/posts', { replace: true })
    } catch (cause) {
      notifyError(cause, t('删除失败'))
    } finally {
      setDeleting(false)
    }
  }

  if (!isNew && isLoading)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    )
  if (!isNew && !post) return <StatusScreen code="404" title={error?.message ?? t('文章不存在')} testId="post-not-found" />

  return (
    <Stack gap="md" data-testid="post-edit-page" data-post-id={isNew ? '' : postId}>
      <Group justify="space-between">
        <Title order={2}>{isNew ? t('新建文章') : t('编辑文章')}</Title>
        <Group gap="xs">
          <Button component={Link} to="/posts" variant="subtle" size="xs" leftSection={<IconArrowLeft size={14} />}>
            {t('文章列表')}
          </Button>
          {!isNew && (
            <Button component={Link} to={`/posts/${postId}`} variant="light" size="xs" leftSection={<IconEye size={14} />} data-testid="post-view">
              {t('查看文章')}
            </Button>
          )}
        </Group>
      </Group>
      <PostEditor key={isNew ? 'new' : postId} initial={initial} saving={saving} deleting={deleting} onSubmit={save} onDelete={isNew ? undefined : () => void remove()} />
    </Stack>
  )
}
