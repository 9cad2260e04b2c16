/** Post entities → contract shapes (docs/compatibility.md#post-shapes). */
import type { PostDetailModel, PostInfoModel } from '@flagwave/shared/schemas/posts'
import { toWireDate } from '@flagwave/shared/format'
import type { Post } from '../entities/Post.js'
import type { User } from '../entities/User.js'
import { avatarUrl } from '../lib/assetUrls.js'

/** What a post is presented from: the entity (its `author` loaded, or null) or a cached copy of it. */
export type PostView = Pick<Post, 'id' | 'title' | 'summary' | 'content' | 'isPinned' | 'tags' | 'updateTime'> & {
  author?: Pick<User, 'userName' | 'avatarHash'> | null
}

export function presentPostDetail(post: PostView): PostDetailModel {
  const author = post.author ?? null
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

export function presentPostInfo(post: PostView): PostInfoModel {
  const { content: _content, ...info } = presentPostDetail(post)
  return info
}
