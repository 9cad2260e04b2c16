/**
 * Posts: the public reads of group `info` (docs/compatibility.md#group-info, re-exported from ./info) and the
 * admin edits of group `edit` (docs/compatibility.md#group-edit), plus the cache bookkeeping after an edit.
 */
import { z } from 'zod'
import { PostDetailModel, type PostEditModel, type PostInfoModel } from '@flagwave/shared/schemas/posts'
import { http } from './http'
import { infoApi } from './info'
import { queryClient } from './queryClient'
import { queryKeys } from './queryKeys'

/** Pinned posts first, keeping the server's order (newest first) within each group. */
export const pinnedFirst = (posts: PostInfoModel[]): PostInfoModel[] => [...posts.filter((p) => p.isPinned), ...posts.filter((p) => !p.isPinned)]

export const postsApi = {
  latest: infoApi.latestPosts,
  list: infoApi.posts,
  get: infoApi.post,
  /** 200 JSON string: the new post id (8 hex characters). */
  create: (body: z.input<typeof PostEditModel>) => http.post('/api/edit/posts', { json: body, schema: z.string() }),
  /** A full replacement; 200 PostDetailModel. */
  update: (id: string, body: z.input<typeof PostEditModel>) => http.put(`/api/edit/posts/${encodeURIComponent(id)}`, { json: body, schema: PostDetailModel }),
  /** 200, empty body. */
  remove: (id: string) => http.delete(`/api/edit/posts/${encodeURIComponent(id)}`),
}

/**
 * After an edit: the post lists (and the post's detail) are refetched where shown and marked
 * stale elsewhere; a detail the server sent back replaces the cached one at once.
 */
export function invalidatePosts(id?: string, detail?: PostDetailModel | null): void {
  if (id !== undefined && detail) queryClient.setQueryData(queryKeys.posts.detail(id), detail)
  void queryClient.invalidateQueries({ queryKey: queryKeys.posts.list, exact: true })
  void queryClient.invalidateQueries({ queryKey: queryKeys.posts.latest, exact: true })
  if (id !== undefined && !detail) void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(id), exact: true })
}

/** A deleted post: forget its detail, refetch the lists. */
export function forgetPost(id: string): void {
  queryClient.removeQueries({ queryKey: queryKeys.posts.detail(id), exact: true })
  invalidatePosts()
}
