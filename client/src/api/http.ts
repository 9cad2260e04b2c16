/**
 * The typed HTTP client (docs/architecture.md#api-client; docs/compatibility.md#content-types-and-success-bodies, #json-members, #dates, #sessions-and-roles, #xsrf, #error-bodies, #client-error-messages).
 *
 * - Same-origin fetch with cookies (`credentials: 'same-origin'`); the session cookie is HttpOnly.
 * - Unsafe methods echo the readable `XSRF-TOKEN` cookie in `X-XSRF-TOKEN` (docs/compatibility.md#xsrf).
 * - No default timeout (docs/compatibility.md#client-constants); callers may pass an AbortSignal and/or `timeoutMs`.
 * - Success bodies: empty (→ undefined), JSON (objects, arrays, string/number literals) or text.
 *   When a zod `schema` from `@flagwave/shared` is given, the body is parsed with it.
 * - Requests carry the interface language in Accept-Language, so titles come back in it
 *   (docs/architecture.md#languages). Failures become an `ApiError` whose message is the error
 *   body's `title` (contract texts mapped by i18n/messages.ts)
 *   and whose `bodyStatus` is the body's `status` (which may differ from the HTTP code);
 *   without a title the generic client messages of docs/compatibility.md#client-error-messages are used.
 */
import type { z } from 'zod'
import { locale, t } from '../i18n'
import { apiMessage } from '../i18n/messages'

/** docs/compatibility.md#client-error-messages generic client errors. */
export type ClientErrorKind = 'badRequest' | 'badResponse' | 'network' | 'timeout' | 'cancelled' | 'invalidUrl'

export const CLIENT_ERROR_MESSAGES: Record<ClientErrorKind, string> = {
  badRequest: t('请求错误'),
  badResponse: t('服务器响应异常'),
  network: t('网络错误，请检查网络连接'),
  timeout: t('请求超时'),
  cancelled: t('请求已取消'),
  invalidUrl: t('无效的请求地址'),
}

/** docs/compatibility.md#rate-limits: the reference client shows a fixed "too frequent" toast for every 429. */
const TOO_MANY_REQUESTS_MESSAGE = t('操作过于频繁，请稍后再试')

export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly kind: ClientErrorKind,
    message: string,
    /** HTTP status code; 0 when no response arrived. */
    readonly status: number = 0,
    /** The `status` member of the error body (docs/compatibility.md#bodystatus-and-the-http-status), when present. */
    readonly bodyStatus: number | null = null,
    /** The parsed error body, when any. */
    readonly body: unknown = undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }

  /** The status clients key off: the body's `status`, else the HTTP code. */
  get effectiveStatus(): number {
    return this.bodyStatus ?? this.status
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError

/** The message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return CLIENT_ERROR_MESSAGES.badResponse
}

type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Query = Record<string, string | number | boolean | null | undefined>

export interface RequestOptions<S extends z.ZodType | undefined = undefined> {
  /** Query parameters; null/undefined values are skipped. */
  query?: Query
  /** A JSON body (sent with `Content-Type: application/json`); strings become JSON string literals. */
  json?: unknown
  /** A multipart body. */
  form?: FormData
  /** Parse the success body with this shared zod schema. */
  schema?: S
  signal?: AbortSignal
  /** Optional timeout; there is none by default (docs/compatibility.md#client-constants). */
  timeoutMs?: number
  headers?: Record<string, string>
}

type Result<S> = S extends z.ZodType ? z.output<S> : unknown

const UNSAFE = new Set<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE'])
const XSRF_COOKIE = 'XSRF-TOKEN'
const XSRF_HEADER = 'X-XSRF-TOKEN'

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return part.slice(eq + 1).trim()
      }
    }
  }
  return null
}

/** The XSRF echo an unsafe request sends (for requests made outside `http`: downloads by POST, uploads with progress). */
export function xsrfHeaders(): Record<string, string> {
  const token = readCookie(XSRF_COOKIE)
  return token ? { [XSRF_HEADER]: token } : {}
}

export function buildUrl(path: string, query?: Query): URL {
  let url: URL
  try {
    url = new URL(path, window.location.origin)
  } catch (cause) {
    throw new ApiError('invalidUrl', CLIENT_ERROR_MESSAGES.invalidUrl, 0, null, undefined, { cause })
  }
  if (url.origin !== window.location.origin) throw new ApiError('invalidUrl', CLIENT_ERROR_MESSAGES.invalidUrl)
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) url.searchParams.set(key, String(value))
  }
  return url
}

function combineSignals(signal: AbortSignal | undefined, timeoutMs: number | undefined): AbortSignal | undefined {
  const timeout = timeoutMs !== undefined && timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined
  if (signal && timeout) return AbortSignal.any([signal, timeout])
  return signal ?? timeout
}

async function readBody(response: Response): Promise<{ text: string; value: unknown; json: boolean }> {
  const text = await response.text()
  if (text === '') return { text, value: undefined, json: false }
  const type = response.headers.get('content-type') ?? ''
  if (/[/+]json\b/i.test(type)) return { text, value: JSON.parse(text) as unknown, json: true }
  return { text, value: text, json: false }
}

/**
 * The error of a failed response. A short plain-text body becomes the message unless
 * `textAsMessage` is false (raw downloads and the scoreboard show the generic message then).
 */
export function errorFromResponse(response: Response, body: unknown, textAsMessage = true): ApiError {
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : null
  const title = typeof record?.title === 'string' && record.title ? record.title : null
  const bodyStatus = typeof record?.status === 'number' ? record.status : null
  const kind: ClientErrorKind = response.status >= 500 ? 'badResponse' : 'badRequest'
  const text = textAsMessage && typeof body === 'string' && body.length < 200 && body.trim() ? body.trim() : null
  const message = response.status === 429 ? TOO_MANY_REQUESTS_MESSAGE : ((title && apiMessage(title)) ?? text ?? CLIENT_ERROR_MESSAGES[kind])
  return new ApiError(kind, message, response.status, bodyStatus, body)
}

/** A body read without trusting its content type: JSON when it parses, the text otherwise. */
export function lenientBody(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** `fetch` for requests made outside `http` (raw bodies): transport failures become ApiErrors. */
export async function fetchOrThrow(url: URL, init: RequestInit & { signal?: AbortSignal }): Promise<Response> {
  try {
    return await fetch(url, { credentials: 'same-origin', ...init, headers: { 'Accept-Language': locale, ...(init.headers as Record<string, string> | undefined) } })
  } catch (cause) {
    throw transportError(cause, init.signal)
  }
}

/** Perform one request; see the module comment for the rules. */
async function request<S extends z.ZodType | undefined = undefined>(
  method: HttpMethod,
  path: string,
  options: RequestOptions<S> = {},
): Promise<Result<S>> {
  const url = buildUrl(path, options.query)
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': locale, ...options.headers }
  let body: BodyInit | undefined
  if (options.form) {
    body = options.form
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.json)
  }
  if (UNSAFE.has(method)) {
    const token = readCookie(XSRF_COOKIE)
    if (token) headers[XSRF_HEADER] = token
  }
  const signal = combineSignals(options.signal, options.timeoutMs)

  let response: Response
  try {
    response = await fetch(url, { method, headers, body, signal, credentials: 'same-origin' })
  } catch (cause) {
    throw transportError(cause, signal)
  }

  let parsed: { text: string; value: unknown; json: boolean }
  try {
    parsed = await readBody(response)
  } catch (cause) {
    if (signal?.aborted) throw transportError(cause, signal)
    if (!response.ok) throw errorFromResponse(response, undefined)
    throw new ApiError('badResponse', CLIENT_ERROR_MESSAGES.badResponse, response.status, null, undefined, { cause })
  }

  if (!response.ok) throw errorFromResponse(response, parsed.value)

  if (!options.schema) return parsed.value as Result<S>
  const result = options.schema.safeParse(parsed.value)
  if (!result.success) {
    console.warn(`[api] ${method} ${url.pathname}: response does not match the contract`, result.error.issues)
    throw new ApiError('badResponse', CLIENT_ERROR_MESSAGES.badResponse, response.status, null, parsed.value, { cause: result.error })
  }
  return result.data as Result<S>
}

function transportError(cause: unknown, signal: AbortSignal | undefined): ApiError {
  if (signal?.aborted) {
    const reason: unknown = signal.reason
    const timedOut = reason instanceof DOMException && reason.name === 'TimeoutError'
    return timedOut
      ? new ApiError('timeout', CLIENT_ERROR_MESSAGES.timeout, 0, null, undefined, { cause })
      : new ApiError('cancelled', CLIENT_ERROR_MESSAGES.cancelled, 0, null, undefined, { cause })
  }
  if (cause instanceof ApiError) return cause
  return new ApiError('network', CLIENT_ERROR_MESSAGES.network, 0, null, undefined, { cause })
}

export const http = {
  get: <S extends z.ZodType | undefined = undefined>(path: string, options?: RequestOptions<S>) => request('GET', path, options),
  post: <S extends z.ZodType | undefined = undefined>(path: string, options?: RequestOptions<S>) => request('POST', path, options),
  put: <S extends z.ZodType | undefined = undefined>(path: string, options?: RequestOptions<S>) => request('PUT', path, options),
  delete: <S extends z.ZodType | undefined = undefined>(path: string, options?: RequestOptions<S>) => request('DELETE', path, options),
}
