/** Post entities → contract shapes (CONTRACT §4.6). */
import type { PostDetailModel, PostInfoModel } from '@flagwave/shared/schemas/posts'
import { toWireDate } from '@flagwave/shared/format'
import type { Post } from '../entities/Post.js'
import type { User } from '../entities/User.js'
import { avatarUrl } from '../domain/files/files.js'

/** The post's `author` must be loaded (or null). */
export function presentPostDetail(post: Post): PostDetailModel {
  const author = (post.author ?? null) as User | null
  return {
    id: post.id,
    title: post.title,
    summary: post.summary,
    isPinned: post.isPinned,
    tags: [...(post.tags ?? [])],
    authorAvatar: avatarUrl(author?.avatarHash),
    authorName: author?.userName ?? null,
    time: toWireDate(post.updateTime),
    content: post.content,
  }
}

export function presentPostInfo(post: Post | PostDetailModel): PostInfoModel {
  const { content: _content, ...info } = 'author' in post ? presentPostDetail(post) : post
  return info
}
