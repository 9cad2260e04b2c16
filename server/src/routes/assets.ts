/** Group `assets` (docs/compatibility.md#group-assets): download (no `/api` prefix), bulk upload, delete. */
import { z } from 'zod'
import { LocalFile } from '@flagwave/shared/schemas/admin'
import { AssetUploadQuery } from '@flagwave/shared/schemas/assets'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { RAW, route } from '../http/route.js'
import { badRequest, notFound } from '../lib/errors.js'
import { presentLocalFile } from '../presenters/files.js'
import { deleteAsset, HASH_PATTERN, HASH_PATTERN_TITLE, uploadAssets } from '../domain/assets/assets.js'
import { IMMUTABLE_CACHE, notModified, storedContentType } from '../domain/assets/download.js'
import { sendBytes } from '../http/ranges.js'

/** `{hash:length(64)}`: any other length matches no endpoint (404). */
const hash64 = z.string().length(64)

export const assetRoutes = [
  route({
    method: 'GET',
    path: '/assets/:hash/:filename',
    params: z.object({ hash: hash64, filename: z.string().min(1) }),
    response: 'file:*/*',
    summary: 'Download a stored file, served as its stored type; the name is only the download name',
    handler: async (ctx, { params, scope }) => {
      const { hash, filename } = params
      if (!HASH_PATTERN.test(hash)) throw badRequest(HASH_PATTERN_TITLE)
      const store = ctx.services.storage
      const type = await storedContentType(scope.em, hash)
      const stat = type === null ? null : await store.stat(hash)
      if (!stat || type === null) throw notFound('文件不存在')
      const etag = `"${hash}"`
      ctx.status = 200
      ctx.set('ETag', etag)
      ctx.set('Last-Modified', stat.mtime.toUTCString())
      ctx.set('Cache-Control', IMMUTABLE_CACHE)
      ctx.attachment(filename)
      // After attachment(), which types the response by the name's extension.
      ctx.set('Content-Type', type)
      if (notModified(ctx.get('If-None-Match') || undefined, ctx.get('If-Modified-Since') || undefined, etag, stat.mtime)) {
        ctx.status = 304
        ctx.body = null
        return RAW
      }
      await sendBytes(ctx, { ...stat, etag, open: (range) => store.open(hash, range) })
      return RAW
    },
  }),
  route({
    method: 'POST',
    path: '/api/assets',
    role: 'Admin',
    query: AssetUploadQuery,
    body: 'multipart',
    bodyLimit: BODY_LIMITS.assets,
    response: z.array(LocalFile),
    summary: 'Upload files (parts named `files`); known bytes gain a reference',
    handler: async (_ctx, { scope, actor, query, files }) => (await uploadAssets(scope, actor, files, query.filename)).map(presentLocalFile),
  }),
  route({
    method: 'DELETE',
    path: '/api/assets/:hash',
    role: 'Admin',
    params: z.object({ hash: hash64 }),
    response: 'empty',
    summary: 'Drop one reference to a file; the last one deletes it',
    handler: async (_ctx, { scope, actor, params }) => {
      await deleteAsset(scope, actor, params.hash)
    },
  }),
]
