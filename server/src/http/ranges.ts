/**
 * Sending stored bytes with HTTP range requests (RFC 9110 §14), for every store: a single range
 * is answered 206 with just those bytes, asked of the store itself (a file offset, or a ranged GET
 * on the bucket); an unsatisfiable one 416; several ranges the whole file, which HTTP allows.
 * `If-Range` applies the range only while the validator still matches.
 */
import type { Context } from 'koa'
import type { Readable } from 'node:stream'
import type { ByteRange } from '../storage/blobStore.js'
import { ifRangeMatches, parseRange } from '../domain/assets/download.js'

export interface StoredBytes {
  size: number
  mtime: Date
  /** A strong ETag, when the bytes have one. */
  etag?: string
  open(range?: ByteRange): Promise<Readable>
}

/** Set status, length, `Accept-Ranges`/`Content-Range` and the body; the caller has set the other headers. */
export async function sendBytes(ctx: Context, bytes: StoredBytes): Promise<void> {
  // Served byte for byte: a compressed body would break ranges and a strong ETag.
  ctx.compress = false
  ctx.set('Accept-Ranges', 'bytes')
  const validator = ctx.get('If-Range') || undefined
  const range = ifRangeMatches(validator, bytes.etag ?? '', bytes.mtime) ? parseRange(ctx.get('Range') || undefined, bytes.size) : { kind: 'full' as const }
  const type = ctx.response.get('Content-Type')
  if (range.kind === 'unsatisfiable') {
    ctx.status = 416
    ctx.set('Content-Range', `bytes */${bytes.size}`)
    ctx.remove('Content-Disposition')
    ctx.type = 'application/json; charset=utf-8'
    ctx.body = JSON.stringify({ title: 'Range Not Satisfiable', status: 416 })
    return
  }
  const head = ctx.method === 'HEAD'
  if (range.kind === 'partial') {
    const body = head ? '' : await bytes.open(range)
    ctx.status = 206
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${bytes.size}`)
    ctx.body = body
    ctx.length = range.end - range.start + 1
  } else {
    const body = head ? '' : await bytes.open()
    ctx.status = 200
    ctx.body = body
    ctx.length = bytes.size
  }
  // Koa types a stream body as binary: the stored type stays.
  if (type) ctx.set('Content-Type', type)
}
