import { defineEntity, p } from '@mikro-orm/core'

/**
 * A stored blob, content-addressed by the lowercase hex SHA-256 of its bytes, shared by every
 * owner of the same bytes (docs/architecture.md#stored-files). `name` and `contentType` are fixed
 * by the first store; owners keep their display names on their own rows.
 */
export const LocalFileSchema = defineEntity({
  name: 'LocalFile',
  tableName: 'files',
  properties: {
    hash: p.string().length(64).primary(),
    name: p.string().length(256),
    fileSize: p.bigint('number'),
    uploadTime: p.datetime(),
    referenceCount: p.integer().default(1),
    /** What the bytes are (detected when first stored); downloads are served with it. */
    contentType: p.string().length(128).default('application/octet-stream'),
  },
})
export class LocalFile extends LocalFileSchema.class {}
LocalFileSchema.setClass(LocalFile)
