/**
 * Request bodies, bounded per route (docs/operations.md#request-limits). Every route has a byte
 * limit (`RouteSpec.bodyLimit`): a `Content-Length` above it is refused with 413 before a byte is
 * read, and a body sent without one (chunked) is cut off with 413 as soon as it passes the limit,
 * so no body is ever buffered or written to disk beyond its route's limit.
 *
 * JSON endpoints require `application/json` (else 415 ProblemDetails,
 * docs/compatibility.md#content-types-and-success-bodies) and a non-empty body; bare JSON strings
 * are allowed (POST /api/team/accept). Multipart uploads are streamed by formidable to temporary
 * files, never buffered whole; handlers receive them as `UploadedFile`s and the files are removed
 * after the response.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import type { IncomingMessage } from 'node:http'
import { Transform, type TransformCallback } from 'node:stream'
import type { Middleware } from 'koa'
import { koaBody } from 'koa-body'
import formidable, { multipart, type File } from 'formidable'
import { badRequest, problem } from '../lib/errors.js'
import type { UploadedFile } from '../lib/uploads.js'

const unparsed = Symbol.for('unparsedBody')

/** The declared `Content-Length`, or null for a body sent without one (chunked) or none. */
function declaredLength(req: IncomingMessage): number | null {
  const header = req.headers['content-length']
  // Node's parser already refused a malformed or repeated Content-Length (400).
  return header === undefined || header === '' ? null : Number(header)
}

/**
 * The up-front check of every route, whether it reads a body or not: a declared length above
 * the limit is a 413 before anything is read (docs/architecture.md#request-flow).
 */
export function bodyLimit(maxBytes: number): Middleware {
  return async (ctx, next) => {
    const length = declaredLength(ctx.req)
    if (length !== null && length > maxBytes) throw problem(413)
    await next()
  }
}

export function jsonBody(maxBytes: number): Middleware {
  const parse = koaBody({
    json: true,
    multipart: false,
    urlencoded: false,
    text: false,
    jsonStrict: false,
    // raw-body counts the bytes as they arrive (after inflating a compressed body) and stops at the limit.
    jsonLimit: maxBytes,
    includeUnparsed: true,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
    onError: (err) => {
      const status = (err as { status?: number }).status
      if (status === 413) throw problem(413)
      throw badRequest(`The JSON value could not be parsed. ${err.message}`)
    },
  })
  return async (ctx, next) => {
    if (!ctx.is('application/json', 'application/*+json')) throw problem(415)
    await parse(ctx, async () => {
      // koa-body 8 keeps the raw text in `ctx.request.rawBody` (older versions used the symbol).
      const raw = (ctx.request as { rawBody?: unknown }).rawBody ?? (ctx.request.body as Record<symbol, unknown> | undefined)?.[unparsed]
      if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) throw badRequest('A non-empty request body is required.')
      await next()
    })
  }
}

/** Thrown into formidable when the raw multipart stream passes the route's limit. */
class BodyTooLarge extends Error {}

/**
 * The request's bytes as a stream that fails with `BodyTooLarge` once more than `maxBytes` went
 * through. formidable's own limits count only file and field bytes; this also bounds the
 * preamble, part headers and anything else a hostile body carries. On failure the request is
 * unpiped and so paused: nothing more is read from the socket.
 */
function limitedBody(req: IncomingMessage, maxBytes: number): Transform & { headers: IncomingMessage['headers'] } {
  let seen = 0
  const limited = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length
      if (seen > maxBytes) done(new BodyTooLarge())
      else done(null, chunk)
    },
  })
  // A client that goes away mid-body must end the parse, as formidable's own 'aborted' handling would.
  req.once('error', (err) => limited.destroy(err))
  req.once('close', () => {
    if (!req.complete) limited.destroy(new Error('Request aborted'))
  })
  req.pipe(limited)
  return Object.assign(limited, { headers: req.headers })
}

export function multipartBody(maxBytes: number): Middleware {
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw problem(415)
    const form = formidable({
      enabledPlugins: [multipart],
      uploadDir: os.tmpdir(),
      maxFileSize: maxBytes,
      maxTotalFileSize: maxBytes,
      maxFieldsSize: Math.min(maxBytes, 64 * 1024),
      maxFiles: 64,
      allowEmptyFiles: true,
      minFileSize: 0,
      keepExtensions: false,
    })
    let parsed: formidable.Files
    try {
      ;[, parsed] = await form.parse(limitedBody(ctx.req, maxBytes) as unknown as IncomingMessage)
    } catch (err) {
      if (err instanceof BodyTooLarge || (err as { httpCode?: number }).httpCode === 413) throw problem(413)
      throw badRequest(`The multipart body could not be read. ${(err as Error).message}`)
    }
    const files: UploadedFile[] = []
    for (const [field, value] of Object.entries(parsed)) {
      for (const f of value ?? []) files.push(toUploaded(field, f))
    }
    ctx.state.files = files
    try {
      await next()
    } finally {
      await Promise.all(files.map((f) => fs.rm(f.path, { force: true })))
    }
  }
}

function toUploaded(field: string, f: File): UploadedFile {
  return { field, path: f.filepath, name: f.originalFilename ?? '', mimeType: f.mimetype ?? 'application/octet-stream', size: f.size }
}
