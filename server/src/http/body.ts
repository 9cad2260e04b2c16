/**
 * Request bodies through koa-body. JSON endpoints require `application/json` (else 415
 * ProblemDetails, docs/compatibility.md#content-types-and-success-bodies) and a non-empty body; bare JSON strings are allowed
 * (POST /api/team/accept). Multipart uploads are streamed by formidable to temporary files,
 * never buffered whole; handlers receive them as `UploadedFile`s and the files are removed
 * after the response.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import type { Middleware } from 'koa'
import { koaBody } from 'koa-body'
import type { File } from 'formidable'
import { REQUEST_BODY_MAX_BYTES } from '@flagwave/shared/limits'
import { badRequest, problem } from '../lib/errors.js'
import type { UploadedFile } from '../lib/uploads.js'

const unparsed = Symbol.for('unparsedBody')

export function jsonBody(): Middleware {
  const parse = koaBody({
    json: true,
    multipart: false,
    urlencoded: false,
    text: false,
    jsonStrict: false,
    jsonLimit: REQUEST_BODY_MAX_BYTES,
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

export function multipartBody(): Middleware {
  const parse = koaBody({
    json: false,
    urlencoded: false,
    text: false,
    multipart: true,
    parsedMethods: ['POST', 'PUT'] as never,
    formidable: {
      uploadDir: os.tmpdir(),
      maxFileSize: REQUEST_BODY_MAX_BYTES,
      maxTotalFileSize: REQUEST_BODY_MAX_BYTES,
      maxFiles: 64,
      allowEmptyFiles: true,
      minFileSize: 0,
      keepExtensions: false,
    },
    onError: (err) => {
      const code = (err as { httpCode?: number }).httpCode
      if (code === 413) throw problem(413)
      throw badRequest(`The multipart body could not be read. ${err.message}`)
    },
  })
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw problem(415)
    await parse(ctx, async () => {
      const files: UploadedFile[] = []
      for (const [field, value] of Object.entries(ctx.request.files ?? {})) {
        for (const f of Array.isArray(value) ? value : [value]) files.push(toUploaded(field, f as File))
      }
      ctx.state.files = files
      try {
        await next()
      } finally {
        await Promise.all(files.map((f) => fs.rm(f.path, { force: true })))
      }
    })
  }
}

function toUploaded(field: string, f: File): UploadedFile {
  return { field, path: f.filepath, name: f.originalFilename ?? '', mimeType: f.mimetype ?? 'application/octet-stream', size: f.size }
}

