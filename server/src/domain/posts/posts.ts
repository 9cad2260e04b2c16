/**
 * Posts (docs/compatibility.md#group-edit, #group-info). The list — pinned first, then by update time,
 * newest first — is kept in the read cache and dropped on every node when a change commits.
 */
import { randomBytes } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { PostEditModel } from '@flagwave/shared/schemas/posts'
import { Post } from '../../entities/Post.js'
import { User } from '../../entities/User.js'
import { notFound } from '../../lib/errors.js'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'


/** A post as the list keeps it: detached from any unit of work, its author's name and avatar copied. */
export interface PostRecord {
  id: string
  title: string
  summary: string
  content: string
  tags: string[]
  isPinned: boolean
  updateTime: Date
  author: { userName: string; avatarHash: string | null } | null
}

function toRecord(post: Post): PostRecord {
  const author = post.author ?? null
  return {
    id: post.id,
    title: post.title,
    summary: post.summary,
    content: post.content,
    tags: [...(post.tags ?? [])],
    isPinned: post.isPinned,
    updateTime: post.updateTime,
    author: author ? { userName: author.userName, avatarHash: author.avatarHash ?? null } : null,
  }
}

/**
 * Every post in display order, from the read cache (docs/architecture.md#read-cache): a post's
 * change or its author's (name, avatar) drops the list when it commits. Shared between requests:
 * callers must not change it.
 */
export async function cachedPosts(em: EntityManager): Promise<readonly PostRecord[]> {
  const list = await readCacheOf(em).read('posts', async () => {
    const posts = await em.find(Post, {}, { populate: ['author'], orderBy: [{ isPinned: 'desc' }, { updateTime: 'desc' }, { id: 'asc' }] })
    const authors = new Set(posts.flatMap((p) => (p.author ? [tags.user((p.author as User).id)] : [])))
    return { value: posts.map(toRecord), tags: [tags.posts, ...authors] }
  })
  return list!
}

const newPostId = (): string => randomBytes(4).toString('hex')

/** `POST /api/edit/posts`: author = caller, time = now; returns the new 8-hex id. */
export async function createPost(scope: Scope, actor: Actor, model: PostEditModel): Promise<Post> {
  const { em, services } = scope
  let id = newPostId()
  while (await em.count(Post, { id })) id = newPostId()
  const post = em.create(Post, {
    id,
    title: model.title,
    summary: model.summary,
    content: model.content,
    tags: model.tags,
    isPinned: model.isPinned,
    author: em.getReference(User, actor.user.id),
    updateTime: new Date(),
  })
  await em.flush()
  await services.audit.success(actor, `添加文章 ${post.id}：${post.title}`)
  return post
}

/**
 * `PUT /api/edit/posts/{id}`: a full replacement (author = caller, time = now) — except that a
 * request whose `isPinned` differs from the stored value only toggles the pin and keeps
 * everything else. This follows v0.17.7 (docs/compatibility.md#neighbouring-versions) in spirit but deliberately departs from
 * it: there the post is returned unchanged, pin included; here the pin does change. Either way
 * pinning never wipes a post, which the reference client's `{title, isPinned}` request would do
 * under v0.17.6 (docs/compatibility.md#deliberate-departures).
 */
export async function updatePost(scope: Scope, actor: Actor, id: string, model: PostEditModel): Promise<Post> {
  const { em, services } = scope
  const post = await em.findOne(Post, { id }, { populate: ['author'] })
  if (!post) throw notFound('文章未找到')
  if (model.isPinned !== post.isPinned) {
    post.isPinned = model.isPinned
  } else {
    post.title = model.title
    post.summary = model.summary
    post.content = model.content
    post.tags = model.tags
    post.author = await em.findOneOrFail(User, { id: actor.user.id })
    post.updateTime = new Date()
  }
  await em.flush()
  await services.audit.success(actor, `更新文章 ${post.id}：${post.title}`)
  return post
}

/** `DELETE /api/edit/posts/{id}`. */
export async function deletePost(scope: Scope, actor: Actor, id: string): Promise<Post> {
  const { em, services } = scope
  const post = await em.findOne(Post, { id })
  if (!post) throw notFound('文章未找到')
  em.remove(post)
  await em.flush()
  await services.audit.success(actor, `删除文章 ${post.id}：${post.title}`)
  return post
}

/** `GET /api/posts/{id}`, looked up in the cached list. */
export async function findPost(em: EntityManager, id: string): Promise<PostRecord> {
  const post = (await cachedPosts(em)).find((p) => p.id === id)
  if (!post) throw notFound('文章不存在')
  return post
}
