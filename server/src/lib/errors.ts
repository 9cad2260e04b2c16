/**
 * The one error type of the platform. Domain code throws `AppError`; the error middleware
 * writes the contract's body. `bodyStatus` exists because the contract sometimes answers
 * HTTP 404 with `"status": 400` in the body (docs/compatibility.md#bodystatus-and-the-http-status).
 */
export type ErrorBody =
  /** RequestResponse: `{ title, status[, data] }`; `extra` adds Flagwave's members after `status` (`twoFactorRequired`). */
  | { kind: 'request'; data?: unknown; extra?: Record<string, unknown> }
  | { kind: 'problem' } // ProblemDetails (docs/compatibility.md#problemdetails)

export class AppError extends Error {
  readonly expose = true
  constructor(
    readonly status: number,
    readonly title: string,
    readonly bodyStatus: number = status,
    readonly body: ErrorBody = { kind: 'request' },
    readonly headers: Record<string, string> = {},
    /** The body status GZ::CTF 0.19.4+ sends instead, to clients that opted in (http/compat.ts). */
    readonly newerBodyStatus?: number,
  ) {
    super(title)
  }
}

export const badRequest = (title: string, bodyStatus = 400) => new AppError(400, title, bodyStatus)
export const unauthorized = (title = '请先登录') => new AppError(401, title)
export const forbidden = (title = '无权访问') => new AppError(403, title)
export const notFound = (title: string, bodyStatus = 404) => new AppError(404, title, bodyStatus)
/** "The game has ended": body status 400 as v0.17.6, 10002 for clients of newer GZ::CTF versions that opted in. */
export const gameEnded = () => new AppError(400, '比赛已结束', 400, { kind: 'request' }, {}, 10002)
export const tooManyRequests = (title: string, retryAfterSeconds?: number) =>
  new AppError(429, title, 429, { kind: 'request' }, retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) })

const PROBLEM_TITLES: Record<number, [string, string]> = {
  404: ['Not Found', 'https://tools.ietf.org/html/rfc7231#section-6.5.4'],
  405: ['Method Not Allowed', 'https://tools.ietf.org/html/rfc7231#section-6.5.5'],
  413: ['Payload Too Large', 'https://tools.ietf.org/html/rfc7231#section-6.5.11'],
  415: ['Unsupported Media Type', 'https://tools.ietf.org/html/rfc7231#section-6.5.13'],
}

/**
 * A framework-level error answered as ProblemDetails. A 413 also closes the connection: the rest
 * of the refused body is never read (docs/operations.md#request-limits), so the connection cannot
 * carry another request.
 */
export const problem = (status: 404 | 405 | 413 | 415) =>
  new AppError(status, PROBLEM_TITLES[status][0], status, { kind: 'problem' }, status === 413 ? { Connection: 'close' } : {})
export const problemType = (status: number) => PROBLEM_TITLES[status]?.[1] ?? 'about:blank'
