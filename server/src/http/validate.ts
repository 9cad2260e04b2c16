/**
 * zod validation with the reference server's input tolerance (docs/compatibility.md#json-members): member names
 * match case-insensitively, unknown members are ignored, and the first problem's message
 * becomes the 400 title (docs/compatibility.md#validation-failures).
 */
import { z } from 'zod'
import { AppError, badRequest } from '../lib/errors.js'

/** Rename incoming members to the schema's spelling when they differ only by letter case. */
function normalizeKeys(schema: z.ZodType, value: unknown): unknown {
  if (Array.isArray(value)) {
    const element = unwrap(schema)
    return element instanceof z.ZodArray ? value.map((v) => normalizeKeys(element.element as z.ZodType, v)) : value
  }
  if (value === null || typeof value !== 'object') return value
  const target = unwrap(schema)
  if (!(target instanceof z.ZodObject)) return value
  const shape = target.shape as Record<string, z.ZodType>
  const byLower = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]))
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    const canonical = byLower.get(key.toLowerCase()) ?? key
    if (canonical in out && key !== canonical) continue // an exact-case member wins
    out[canonical] = shape[canonical] ? normalizeKeys(shape[canonical], v) : v
  }
  return out
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema
  for (let i = 0; i < 8; i++) {
    if (s instanceof z.ZodPipe) s = s.in as z.ZodType
    else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType
    else break
  }
  return s
}

const VALIDATION_FALLBACK = '校验失败，请检查输入。'

function firstMessage(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue?.message || VALIDATION_FALLBACK
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL anywhere in an accepted input would surface as a
 * database error (a 500) instead of the client mistake it is.
 */
const NUL_TITLE = 'The input contains an invalid character (U+0000).'

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (depth > 64 || value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1))
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1))
}

export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(normalizeKeys(schema, value))
  if (!result.success) throw badRequest(firstMessage(result.error))
  if (containsNul(value)) throw badRequest(NUL_TITLE)
  return result.data
}

/** Path parameters that fail their type constraint match no endpoint (docs/compatibility.md#paths-and-routing). */
export function parseParamsOrNotFound<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value)
  if (!result.success) throw new AppError(404, 'Not Found', 404, { kind: 'problem' })
  return result.data
}
