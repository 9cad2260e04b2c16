/**
 * Query-string parameters of the game endpoints (docs/compatibility.md#lists-and-paging, #group-game-reading-and-joining, #group-game-monitors), with ASP.NET's
 * binding: a value that does not convert is a 400 `The value '{v}' is not valid.`; an absent
 * parameter takes its default; a repeated one uses its first value.
 */
import { z } from 'zod'
import { AnswerResult, wireEnum } from '../enums.js'

const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v)
const invalid = (v: unknown) => `The value '${String(v)}' is not valid.`

/** An `int` query parameter with a default. */
const queryInt = (fallback: number) =>
  z.preprocess(
    first,
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === '') return fallback
        if (!/^\s*[+-]?\d+\s*$/.test(v) || Math.abs(Number(v)) > 2147483647) {
          ctx.addIssue({ code: 'custom', message: invalid(v) })
          return z.NEVER
        }
        return Number(v)
      }),
  )

/** A `bool` query parameter (`true`/`false`, any case) with a default. */
const queryBool = (fallback: boolean) =>
  z.preprocess(
    first,
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === '') return fallback
        const t = v.trim().toLowerCase()
        if (t === 'true') return true
        if (t === 'false') return false
        ctx.addIssue({ code: 'custom', message: invalid(v) })
        return z.NEVER
      }),
  )

/** An optional `AnswerResult` query parameter: a name (any case) or its integer code. */
const answerResult = wireEnum(AnswerResult)
const queryAnswerResult = z.preprocess(
  first,
  z
    .string()
    .optional()
    .transform((v, ctx): AnswerResult | null => {
      if (v === undefined || v === '') return null
      const parsed = answerResult.safeParse(v.trim())
      if (parsed.success) return parsed.data
      ctx.addIssue({ code: 'custom', message: invalid(v) })
      return z.NEVER
    }),
)

export const PageQuery = z.object({ count: queryInt(100), skip: queryInt(0) })
export const EventsQuery = PageQuery.extend({ hideContainer: queryBool(false) })
export const SubmissionsQuery = PageQuery.extend({ type: queryAnswerResult })

/** An optional `int` query parameter within [min, max] (.NET's [Range] message); absent → null. */
const queryIntInRange = (name: string, min: number, max: number) =>
  z.preprocess(
    first,
    z
      .string()
      .optional()
      .transform((v, ctx): number | null => {
        if (v === undefined || v === '') return null
        if (!/^\s*[+-]?\d+\s*$/.test(v) || Math.abs(Number(v)) > 2147483647) {
          ctx.addIssue({ code: 'custom', message: invalid(v) })
          return z.NEVER
        }
        const n = Number(v)
        if (n < min || n > max) {
          ctx.addIssue({ code: 'custom', message: `The field ${name} must be between ${min} and ${max}.` })
          return z.NEVER
        }
        return n
      }),
  )

/**
 * `GET /api/game`: v0.17.6 takes no query (the 10 most recent games, a bare array); GZ::CTF 1.2
 * pages with `count` (0–50, default 10) and `skip`, and either one asks for the `{data, length,
 * total}` answer (docs/compatibility.md#newer-gzctf-versions).
 */
export const GameListQuery = z.object({ count: queryIntInRange('count', 0, 50), skip: queryIntInRange('skip', 0, 2147483647) })

/** `GET /api/game/recent` (GZ::CTF 1.2): `limit` 0–50, default 10. */
export const RecentGamesQuery = z.object({ limit: queryIntInRange('limit', 0, 50) })
