/**
 * Posts (docs/compatibility.md#group-edit, #group-info). The list — pinned first, then by update time,
 * newest first — is kept in process and dropped on every change. With Redis the nodes share a
 * version counter, so a change made on one node invalidates the others' lists on their next read.
 */
import { randomBytes } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { PostEditModel } from '@flagwave/shared/schemas/posts'
import { Post } from '../../entities/Post.js'
import { User } from '../../entities/User.js'
import { notFound } from '../../lib/errors.js'
import type { Services } from '../../services.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

/** Profile edits (author name, avatar) are not announced, so cached lists also age out. */
const CACHE_TTL_MS = 5 * 60_000
const VERSION_KEY = 'flagwave:posts:version'

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

interface PostCache {
  generation: number
  posts: PostRecord[] | null
  version: string | null
  expires: number
}

const caches = new WeakMap<Services, PostCache>()

function cacheOf(services: Services): PostCache {
  let cache = caches.get(services)
  if (!cache) {
    cache = { generation: 0, posts: null, version: null, expires: 0 }
    caches.set(services, cache)
  }
  return cache
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

/** Every post in display order (shared between requests: callers must not change them). */
export async function cachedPosts(em: EntityManager, services: Services): Promise<PostRecord[]> {
  const cache = cacheOf(services)
  const version = services.redis ? await services.redis.get(VERSION_KEY) : null
  if (cache.posts && cache.expires > Date.now() && cache.version === version) return cache.posts
  const generation = cache.generation
  const posts = await em.find(Post, {}, { populate: ['author'], orderBy: [{ isPinned: 'desc' }, { updateTime: 'desc' }, { id: 'asc' }] })
  const records = posts.map(toRecord)
  // A change that committed while we were reading has invalidated the list: do not store it.
  if (cache.generation === generation) Object.assign(cache, { posts: records, version, expires: Date.now() + CACHE_TTL_MS })
  return records
}

/** Drop the cached list here and, through the shared version, on every node. */
export async function invalidatePosts(services: Services): Promise<void> {
  const cache = cacheOf(services)
  cache.generation += 1
  cache.posts = null
  if (services.redis) await services.redis.incr(VERSION_KEY)
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
  await invalidatePosts(services)
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
  await invalidatePosts(services)
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
  await invalidatePosts(services)
  await services.audit.success(actor, `删除文章 ${post.id}：${post.title}`)
  return post
}

/** `GET /api/posts/{id}`, looked up in the cached list. */
export async function findPost(em: EntityManager, services: Services, id: string): Promise<PostRecord> {
  const post = (await cachedPosts(em, services)).find((p) => p.id === id)
  if (!post) throw notFound('文章不存在')
  return post
}
