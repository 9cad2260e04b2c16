/** Group `assets` (docs/compatibility.md#group-assets): download (no `/api` prefix), bulk upload, delete. */
import { z } from 'zod'
import { LocalFile } from '@flagwave/shared/schemas/admin'
import { AssetUploadQuery } from '@flagwave/shared/schemas/assets'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { RAW, route } from '../http/route.js'
import { badRequest, notFound } from '../lib/errors.js'
import { presentLocalFile } from '../presenters/files.js'
import { deleteAsset, HASH_PATTERN, HASH_PATTERN_TITLE, uploadAssets } from '../domain/assets/assets.js'
import { IMMUTABLE_CACHE, ifRangeMatches, notModified, parseRange, storedContentType } from '../domain/assets/download.js'

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
      // Served byte for byte: a compressed body would break ranges and the strong ETag.
      ctx.compress = false
      ctx.status = 200
      ctx.set('ETag', etag)
      ctx.set('Last-Modified', stat.mtime.toUTCString())
      ctx.set('Cache-Control', IMMUTABLE_CACHE)
      ctx.set('Accept-Ranges', 'bytes')
      ctx.set('Content-Type', type)
      ctx.attachment(filename)
      if (notModified(ctx.get('If-None-Match') || undefined, ctx.get('If-Modified-Since') || undefined, etag, stat.mtime)) {
        ctx.status = 304
        ctx.body = null
        return RAW
      }
      const range = ifRangeMatches(ctx.get('If-Range') || undefined, etag, stat.mtime) ? parseRange(ctx.get('Range') || undefined, stat.size) : { kind: 'full' as const }
      if (range.kind === 'unsatisfiable') {
        ctx.status = 416
        ctx.set('Content-Range', `bytes */${stat.size}`)
        ctx.remove('Content-Disposition')
        ctx.type = 'application/json; charset=utf-8'
        ctx.body = JSON.stringify({ title: 'Range Not Satisfiable', status: 416 })
        return RAW
      }
      if (range.kind === 'partial') {
        ctx.status = 206
        ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`)
        ctx.body = ctx.method === 'HEAD' ? '' : store.open(hash, range)
        ctx.length = range.end - range.start + 1
      } else {
        ctx.body = ctx.method === 'HEAD' ? '' : store.open(hash)
        ctx.length = stat.size
      }
      ctx.set('Content-Type', type)
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
