import { defineEntity, p } from '@mikro-orm/core'

/** A stored blob, content-addressed by the lowercase hex SHA-256 of its bytes (docs/compatibility.md#group-assets). */
export const LocalFileSchema = defineEntity({
  name: 'LocalFile',
  tableName: 'files',
  properties: {
    hash: p.string().length(64).primary(),
    name: p.string().length(256),
    fileSize: p.bigint('number'),
    uploadTime: p.datetime(),
    referenceCount: p.integer().default(1),
  },
})
export class LocalFile extends LocalFileSchema.class {}
LocalFileSchema.setClass(LocalFile)
