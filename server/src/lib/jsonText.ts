/**
 * Response bodies as JSON text, and the newer GZ::CTF time form (docs/compatibility.md#newer-gzctf-versions).
 *
 * `JsonText` is a body already serialised: routes return it for answers assembled from JSON kept
 * per version (the challenge board, notices, game details), so that the same bytes are not
 * rebuilt for every request. The text must be what `JSON.stringify` of the route's response
 * schema would give. It may carry a validator (`etag`, answered with 304 by the router) and its
 * millisecond-time variant, built once by whoever keeps the text.
 */
import { createHash } from 'node:crypto'
import { WIRE_DATE_PATTERN } from '@flagwave/shared/format'

export class JsonText {
  private msCache: string | undefined
  constructor(
    readonly text: string,
    readonly etag?: string,
    private readonly msVariant?: () => string,
  ) {}

  /** The same JSON with every time as Unix milliseconds, built at most once per instance. */
  get ms(): string {
    return (this.msCache ??= this.msVariant ? this.msVariant() : msTimesOfText(this.text))
  }
}

/**
 * Every time member of the wire shapes (old and new names). GZ::CTF 1.1 sends them all as int64
 * Unix milliseconds; only members of these names that hold a wire date are converted, so a team
 * or challenge named like a date stays a string.
 */
const TIME_MEMBERS = new Set([
  'time',
  'start',
  'end',
  'wpddl',
  'writeupDeadline',
  'deadline',
  'deadlineUtc',
  'releaseTimeUtc',
  'closeTime',
  'startedAt',
  'expectStopAt',
  'lastSubmissionTime',
  'updateTime',
  'updateTimeUTC',
  'updateTimeUtc',
  'submitTimeUTC',
  'submitTimeUtc',
  'registerTimeUTC',
  'registerTimeUtc',
  'lastVisitedUTC',
  'lastVisitedUtc',
  'uploadTimeUTC',
  'uploadTimeUtc',
])

function msReplacer(key: string, value: unknown): unknown {
  return typeof value === 'string' && TIME_MEMBERS.has(key) && WIRE_DATE_PATTERN.test(value) ? Date.parse(value) : value
}

/** `JSON.stringify` with times as Unix milliseconds. */
export const msTimesJson = (value: unknown): string => JSON.stringify(value, msReplacer)

/** JSON text with times as Unix milliseconds (parsed and written again: for text kept per version). */
export const msTimesOfText = (text: string): string => JSON.stringify(JSON.parse(text), msReplacer)

/** A weak validator of a serialised body: a hash of its bytes. */
const etagOf = (text: string): string => `W/"${createHash('sha1').update(text).digest('base64url').slice(0, 20)}"`

const derived = new WeakMap<object, Map<string, JsonText>>()
/** Bots poll with a handful of fixed queries; beyond this many variants of one source they are rebuilt on demand. */
const MAX_VARIANTS = 16

/**
 * A body derived from a value the read cache shares between requests (the same object until a
 * row behind it changes, docs/architecture.md#read-cache): serialised, hashed for its validator
 * and converted to millisecond times once per source and `key` (the query that shaped it), not
 * once per poll.
 */
export function derivedJsonText(source: object, key: string, build: () => unknown): JsonText {
  let variants = derived.get(source)
  if (!variants) derived.set(source, (variants = new Map()))
  let body = variants.get(key)
  if (!body) {
    const value = build()
    const text = JSON.stringify(value)
    body = new JsonText(text, etagOf(text), () => msTimesJson(value))
    if (variants.size >= MAX_VARIANTS) variants.clear()
    variants.set(key, body)
  }
  return body
}
