/**
 * Maps every thrown error to the contract's error body. Client mistakes are AppErrors (or
 * Koa/http-errors with a 4xx status); anything else is a real 500: its stack is logged with
 * the request id, and the body carries that id so a report can be matched to the log line.
 * Titles follow the caller's Accept-Language here and nowhere else (lib/errorTitles.ts).
 */
import type { Middleware } from 'koa'
import { AppError, problemType } from '../lib/errors.js'
import { localizedTitle } from '../lib/errorTitles.js'
import { StorageUnavailableError } from '../storage/blobStore.js'

/** How soon a client may try again after the store was unreachable (seconds). */
const STORAGE_RETRY_AFTER = '30'
import { wantsNewerForms } from './compat.js'

export function errorMiddleware(): Middleware {
  return async (ctx, next) => {
    try {
      await next()
    } catch (err) {
      const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string }
      if (err instanceof AppError) {
        ctx.status = err.status
        ctx.set(err.headers)
        const answer = appErrorAnswer(err, ctx.get('Accept-Language'), wantsNewerForms(ctx), ctx.state.requestId as string)
        if (answer.type) ctx.type = answer.type
        ctx.body = answer.body
        return
      }
      if (err instanceof StorageUnavailableError) {
        // The bucket or disk is down, not the request wrong: nothing was committed without its bytes (docs/operations.md#object-storage).
        ;(ctx.state.log ?? ctx.services.log).warn({ err, cause: err.cause, requestId: ctx.state.requestId }, 'storage unavailable')
        ctx.status = 503
        ctx.set('Retry-After', STORAGE_RETRY_AFTER)
        ctx.body = { title: localizedTitle('存储服务暂不可用', ctx.get('Accept-Language') || undefined), status: 503 }
        return
      }
      const status = e.status ?? e.statusCode
      if (status && status >= 400 && status < 500) {
        // http-errors from Koa or its body parser: size limits, malformed bodies, aborted requests.
        ctx.status = status
        ctx.body = { title: clientErrorTitle(status, e), status }
        return
      }
      ;(ctx.state.log ?? ctx.services.log).error({ err, requestId: ctx.state.requestId }, 'unhandled error')
      ctx.status = 500
      ctx.body = { title: localizedTitle('服务器内部错误', ctx.get('Accept-Language') || undefined), status: 500, requestId: ctx.state.requestId }
    }
  }
}

/**
 * The contract's body of an AppError for a caller (its `Accept-Language`, whether it opted in to
 * the newer forms), and its media type when not Koa's JSON default: one shape for Koa and for the
 * answers sent without it (http/hotSubmissions.ts).
 */
export function appErrorAnswer(err: AppError, acceptLanguage: string, newer: boolean, traceId: string): { type?: string; body: Record<string, unknown> } {
  if (err.body.kind === 'problem') {
    return { type: 'application/problem+json', body: { type: problemType(err.status), title: err.title, status: err.status, traceId } }
  }
  const body: Record<string, unknown> = { title: localizedTitle(err.title, acceptLanguage || undefined) }
  if (err.body.data !== undefined) body.data = err.body.data
  body.status = err.newerBodyStatus !== undefined && newer ? err.newerBodyStatus : err.bodyStatus
  if (err.body.extra) Object.assign(body, err.body.extra)
  return { body }
}

function clientErrorTitle(status: number, e: { message?: string; type?: string }): string {
  if (status === 413) return 'Request body too large.'
  if (e.type === 'entity.parse.failed' || /JSON/i.test(e.message ?? '')) return `The JSON value is invalid: ${e.message ?? 'malformed'}`
  return e.message || 'Bad Request'
}
