/**
 * Posts: the public reads of group `info` (docs/compatibility.md#group-info) and the admin edits of group
 * `edit` (docs/compatibility.md#group-edit).
 */
import { z } from 'zod'
import { PostDetailModel, PostEditModel, PostInfoModel } from '@flagwave/shared/schemas/posts'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { route } from '../http/route.js'
import { presentPostDetail, presentPostInfo } from '../presenters/posts.js'
import { cachedPosts, createPost, deletePost, findPost, updatePost } from '../domain/posts/posts.js'

/** `{id:length(8)}`: other lengths match no endpoint. */
const idParams = z.object({ id: z.string().length(8) })

const LATEST_COUNT = 20

export const postRoutes = [
  route({
    method: 'GET',
    path: '/api/posts/latest',
    response: z.array(PostInfoModel),
    summary: 'The first 20 posts (pinned first, then newest)',
    handler: async (_ctx, { scope }) => (await cachedPosts(scope.em)).slice(0, LATEST_COUNT).map(presentPostInfo),
  }),
  route({
    method: 'GET',
    path: '/api/posts',
    response: z.array(PostInfoModel),
    summary: 'All posts (pinned first, then newest)',
    handler: async (_ctx, { scope }) => (await cachedPosts(scope.em)).map(presentPostInfo),
  }),
  route({
    method: 'GET',
    path: '/api/posts/:id',
    params: idParams,
    response: PostDetailModel,
    summary: 'One post with its content',
    handler: async (_ctx, { params, scope }) => presentPostDetail(await findPost(scope.em, params.id)),
  }),
  route({
    method: 'POST',
    path: '/api/edit/posts',
    role: 'Admin',
    body: PostEditModel,
    bodyLimit: BODY_LIMITS.content,
    response: z.string(),
    summary: 'Create a post; returns its id',
    handler: async (_ctx, { scope, actor, body }) => (await createPost(scope, actor, body)).id,
  }),
  route({
    method: 'PUT',
    path: '/api/edit/posts/:id',
    role: 'Admin',
    params: idParams,
    body: PostEditModel,
    bodyLimit: BODY_LIMITS.content,
    response: PostDetailModel,
    summary: 'Replace a post (a pin toggle changes only the pin)',
    handler: async (_ctx, { scope, actor, params, body }) => presentPostDetail(await updatePost(scope, actor, params.id, body)),
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/posts/:id',
    role: 'Admin',
    params: idParams,
    response: 'empty',
    summary: 'Delete a post',
    handler: async (_ctx, { scope, actor, params }) => {
      await deletePost(scope, actor, params.id)
    },
  }),
]
