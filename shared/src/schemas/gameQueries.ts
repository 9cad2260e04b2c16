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
