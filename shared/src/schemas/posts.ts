/** Posts (docs/compatibility.md#post-shapes). */
import { z } from 'zod'
import { POST_TITLE_MAX } from '../limits.js'
import { defaultedString, requiredString, stringArray, wireBool, wireDateOut } from './fields.js'

/** Request of `POST /api/edit/posts` and `PUT /api/edit/posts/{id}` (a full replacement). */
export const PostEditModel = z.object({
  title: requiredString('标题是必需的').max(POST_TITLE_MAX, '标题过长'),
  summary: defaultedString('Summary'),
  content: defaultedString('Content'),
  tags: stringArray('Tags').default([]),
  isPinned: wireBool().default(false),
})
export type PostEditModel = z.infer<typeof PostEditModel>

export const PostInfoModel = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  isPinned: z.boolean(),
  tags: z.array(z.string()).nullable(),
  authorAvatar: z.string().nullable(),
  authorName: z.string().nullable(),
  time: wireDateOut(),
})
export type PostInfoModel = z.infer<typeof PostInfoModel>

export const PostDetailModel = PostInfoModel.extend({
  content: z.string(),
})
export type PostDetailModel = z.infer<typeof PostDetailModel>
