import { useState } from 'react'
import type { PostInfoModel } from '@flagwave/shared/schemas/posts'
import { invalidatePosts, postsApi } from '../../api/posts'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

/**
 * The admin's pin toggle on a list. PUT /api/edit/posts/{id} is a full replacement under the
 * contract (docs/compatibility.md#group-edit), so the whole post is read first and sent back with only the pin flipped —
 * a `{title, isPinned}` body would wipe summary, content and tags on a v0.17.6 server.
 */
export function usePinToggle(): { toggle: (post: PostInfoModel) => Promise<void>; busyId: string | null } {
  const [busyId, setBusyId] = useState<string | null>(null)
  const toggle = async (post: PostInfoModel) => {
    setBusyId(post.id)
    try {
      const detail = await postsApi.get(post.id)
      const updated = await postsApi.update(post.id, {
        title: detail.title,
        summary: detail.summary,
        content: detail.content,
        tags: detail.tags ?? [],
        isPinned: !detail.isPinned,
      })
      invalidatePosts(post.id, updated)
      notifySuccess(updated.isPinned ? t('已置顶「{{title}}」', { title: updated.title }) : t('已取消置顶「{{title}}」', { title: updated.title }))
    } catch (error) {
      notifyError(error, t('置顶操作失败'))
    } finally {
      setBusyId(null)
    }
  }
  return { toggle, busyId }
}
