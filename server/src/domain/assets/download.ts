/**
 * Serving a stored file (docs/compatibility.md#group-assets, improved): content is addressed by its hash, so a
 * response may be cached for good and validated by its ETag; single byte ranges are honoured
 * (206), unsatisfiable ones refused (416). Multiple ranges are answered with the whole file,
 * which HTTP allows.
 */
import type { EntityManager } from '@mikro-orm/postgresql'

export type RangeOutcome = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' }

/** Parse a `Range` header against a file of `size` bytes (RFC 9110 §14). */
export function parseRange(header: string | undefined, size: number): RangeOutcome {
  if (!header) return { kind: 'full' }
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header)
  if (!match) return { kind: 'full' }
  const specs = match[1].split(',').map((s) => s.trim()).filter(Boolean)
  if (specs.length !== 1) return { kind: 'full' }
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0])
  if (!spec || (spec[1] === '' && spec[2] === '')) return { kind: 'full' }
  if (spec[1] === '') {
    const suffix = Number(spec[2])
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(spec[1])
  if (spec[2] !== '' && Number(spec[2]) < start) return { kind: 'full' } // syntactically invalid: ignored
  if (start >= size) return { kind: 'unsatisfiable' }
  const end = spec[2] === '' ? size - 1 : Math.min(Number(spec[2]), size - 1)
  return { kind: 'partial', start, end }
}

/**
 * Conditional GET (RFC 9110 §13.1.2, §13.1.3): `If-None-Match` (weak comparison, `*` matches)
 * decides when present, otherwise `If-Modified-Since` at one-second precision. A request's
 * `Cache-Control: no-cache` is addressed to caches, not to the origin, so it does not matter here
 * (fetch() adds it to every conditional request).
 */
export function notModified(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, etag: string, lastModified: Date): boolean {
  if (ifNoneMatch) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag))
  }
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince)
    return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000)
  }
  return false
}

/**
 * `If-Range`: the range applies only when the validator still matches — a strong ETag equal to
 * ours, or an HTTP date not older than the file.
 */
export function ifRangeMatches(header: string | undefined, etag: string, lastModified: Date): boolean {
  if (!header) return true
  const value = header.trim()
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag
  const date = Date.parse(value)
  return !Number.isNaN(date) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(date / 1000)
}

/**
 * The Content-Type a stored file is served with: the one stored with it (detected from its bytes
 * when first stored, docs/architecture.md#stored-files), never the URL's name. Null for a hash
 * without a row, which is not served even if bytes are on disk.
 */
export async function storedContentType(em: EntityManager, hash: string): Promise<string | null> {
  const [row] = await em.execute<{ content_type: string }[]>('select content_type from files where hash = ?', [hash])
  return row?.content_type ?? null
}

/** Strong caching: the bytes behind a hash never change. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'
