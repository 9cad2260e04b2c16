/**
 * The Content-Type a stored file is served with (docs/architecture.md#stored-files): what its
 * first bytes say it is, else what the extension of the name it was first stored under says —
 * never a type a browser would run as a document or script. The name in a download URL plays no
 * part: it is only a label.
 */
import path from 'node:path'
import { contentType, lookup } from 'mime-types'

const OCTET_STREAM = 'application/octet-stream'

/** Signatures of the formats the platform stores most: images, PDF, archives. */
const SIGNATURES: { type: string; at?: number; bytes: (number | null)[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/gif', bytes: [...Buffer.from('GIF87a')] },
  { type: 'image/gif', bytes: [...Buffer.from('GIF89a')] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/webp', bytes: [...Buffer.from('RIFF'), null, null, null, null, ...Buffer.from('WEBP')] },
  { type: 'image/tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { type: 'image/tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { type: 'application/pdf', bytes: [...Buffer.from('%PDF-')] },
  { type: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/zip', bytes: [0x50, 0x4b, 0x05, 0x06] },
  { type: 'application/gzip', bytes: [0x1f, 0x8b, 0x08] },
  { type: 'application/x-7z-compressed', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { type: 'application/vnd.rar', bytes: [...Buffer.from('Rar!'), 0x1a, 0x07] },
  { type: 'application/x-xz', bytes: [0xfd, ...Buffer.from('7zXZ'), 0x00] },
  { type: 'application/x-tar', at: 257, bytes: [...Buffer.from('ustar')] },
]

function sniff(head: Buffer): string | null {
  for (const { type, at = 0, bytes } of SIGNATURES) {
    if (head.length >= at + bytes.length && bytes.every((b, i) => b === null || head[at + i] === b)) return type
  }
  return null
}

/**
 * Types a browser renders as an active document or runs (HTML, XML and SVG, scripts, MIME
 * archives), whatever their bytes: such a file is stored as `application/octet-stream`.
 */
const ACTIVE = /^(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[^/]+\/[^;]*\+xml|text\/xsl|[^/]+\/(?:x-)?(?:java|ecma)script|application\/x-shockwave-flash|message\/|multipart\/)/i

/** The type of a file about to be stored under `name`, from its leading bytes `head`. */
export function detectContentType(head: Buffer, name: string): string {
  const sniffed = sniff(head)
  if (sniffed) return sniffed
  const ext = path.extname(name)
  const declared = ext.length > 1 ? lookup(ext) : false
  const type = declared ? contentType(declared) : false
  if (!type || ACTIVE.test(type) || type.length > 128) return OCTET_STREAM
  return type
}
