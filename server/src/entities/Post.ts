import { defineEntity, p } from '@mikro-orm/core'
import { User } from './User.js'

export const PostSchema = defineEntity({
  name: 'Post',
  tableName: 'posts',
  properties: {
    /** 8 lowercase hex characters (docs/compatibility.md#identifiers-and-e-mail-links). */
    id: p.string().length(8).primary(),
    title: p.string().length(64),
    summary: p.text().default(''),
    content: p.text().default(''),
    isPinned: p.boolean().default(false),
    tags: p.array().default([]),
    author: () => p.manyToOne(User).nullable().deleteRule('set null'),
    updateTime: p.datetime().index(),
  },
})
export class Post extends PostSchema.class {}
PostSchema.setClass(Post)
