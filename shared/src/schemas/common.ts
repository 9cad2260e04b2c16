/** Envelopes and error bodies (docs/compatibility.md#error-bodies). */
import { z } from 'zod'

export const RequestResponse = z.object({ title: z.string(), status: z.number().int() })
export type RequestResponse = z.infer<typeof RequestResponse>

export const requestResponseOf = <T extends z.ZodType>(data: T) =>
  z.object({ title: z.string(), data, status: z.number().int() })

export const arrayResponseOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), length: z.number().int(), total: z.number().int() })
export type ArrayResponse<T> = { data: T[]; length: number; total: number }

export const ProblemDetails = z.object({ type: z.string(), title: z.string(), status: z.number().int(), traceId: z.string() })
export type ProblemDetails = z.infer<typeof ProblemDetails>

/** A query-string parameter as one string: a repeated parameter uses its first value; absent → undefined. */
export const queryString = () =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((raw) => (Array.isArray(raw) ? raw[0] : raw))

/**
 * A typed query-string integer (docs/compatibility.md#validation-failures, #lists-and-paging): absent → `fallback`; a value that is not
 * an optionally signed integer → 400 `The value '{v}' is not valid for {name}.`. A repeated
 * parameter uses its first value.
 */
export const queryInt = (name: string, fallback: number) =>
  queryString().transform((value, ctx) => {
    if (value === undefined || value === '') return fallback
    if (!/^\s*[+-]?\d{1,10}\s*$/.test(value) || Math.abs(Number(value)) > 2147483647) {
      ctx.addIssue({ code: 'custom', message: `The value '${value}' is not valid for ${name}.` })
      return z.NEVER
    }
    return Number(value)
  })

/**
 * `count` and `skip` of a paged list; the default `count` differs per endpoint (docs/compatibility.md#lists-and-paging).
 * With `maxCount`, a larger `count` answers that many rows (GZ::CTF 1.2's caps of the admin lists,
 * applied as a bound rather than a 400 so that no v0.17.6 request is refused).
 */
export const pagingQuery = (defaultCount: number, maxCount = Number.POSITIVE_INFINITY) =>
  z.object({
    count: queryInt('count', defaultCount).transform((count) => Math.min(count, maxCount)),
    skip: queryInt('skip', 0),
  })

/** GZ::CTF 1.2's caps of the admin lists: users, teams and files 500, the audit log 1000. */
export const ADMIN_LIST_MAX = 500
export const ADMIN_LOG_MAX = 1000
