/**
 * Reading an uploaded archive without trusting it (docs/archive.md#limits). Every entry is
 * written to a file of our own naming in a fresh temporary folder — never to a path built from
 * the entry's name — so a name cannot reach outside it; names are still checked, so that a
 * hostile archive is refused with a clear reason instead of half read. The entry count and the
 * declared unpacked size are checked before anything is unpacked, and yauzl checks every
 * entry's real size against its declaration while it inflates (a lying header fails there).
 */
import { createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import yauzl from 'yauzl'
import { ARCHIVE_DOCUMENT_MAX_BYTES, ARCHIVE_ENTRIES_MAX, ARCHIVE_UNPACKED_MAX_BYTES } from '@flagwave/shared/limits'
import { AppError } from '../../lib/errors.js'
import { invalid } from './read.js'

/** An unpacked archive: entry name → path of its bytes on disk. `dispose()` removes them. */
export interface UnpackedArchive {
  entries: Map<string, { path: string; size: number }>
  /** Read an entry as UTF-8 text (documents only: refused beyond ARCHIVE_DOCUMENT_MAX_BYTES). */
  text(name: string): Promise<string>
  dispose(): Promise<void>
}

export interface UnzipLimits {
  maxEntries: number
  maxUnpackedBytes: number
}

const DEFAULT_LIMITS: UnzipLimits = { maxEntries: ARCHIVE_ENTRIES_MAX, maxUnpackedBytes: ARCHIVE_UNPACKED_MAX_BYTES }

/** The reason a name is refused, or null. Names are `/`-separated and relative, as the zip format wants them. */
function unsafeName(name: string): string | null {
  if (name.length === 0 || name.length > 1024) return 'empty or overlong name'
  if (name.includes('\\')) return 'backslash in name'
  if (name.includes('\0')) return 'NUL in name'
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'absolute path'
  if (name.split('/').some((part) => part === '..')) return 'path leads outside the archive'
  return null
}

/** `./a//b` and `a/b` are the same entry. */
const normalizeName = (name: string): string => name.split('/').filter((p) => p !== '' && p !== '.').join('/')


function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // strictFileNames off: our own check gives the reason; decodeStrings keeps names as text.
    yauzl.open(file, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false, autoClose: false }, (err, zip) => {
      if (err || !zip) reject(invalid(err?.message ?? 'not a zip archive'))
      else resolve(zip)
    })
  })
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(invalid(err?.message ?? 'unreadable entry')) : resolve(stream)))
  })
}

/** Unpack `file` (a zip on disk) under the limits; a 400 `压缩包无效：…` for anything hostile or broken. */
export async function unzipUpload(file: string, limits: UnzipLimits = DEFAULT_LIMITS): Promise<UnpackedArchive> {
  const zip = await openZip(file)
  if (zip.entryCount > limits.maxEntries) {
    zip.close()
    throw invalid(`too many entries (${zip.entryCount}, at most ${limits.maxEntries})`)
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-import-'))
  const entries = new Map<string, { path: string; size: number }>()
  const dispose = () => fs.rm(dir, { recursive: true, force: true })
  try {
    // The central directory is read first, whole: every name and the declared total are judged
    // before a single byte is inflated.
    const listed = await new Promise<yauzl.Entry[]>((resolve, reject) => {
      const list: yauzl.Entry[] = []
      let declared = 0
      zip.on('entry', (entry: yauzl.Entry) => {
        const reason = unsafeName(entry.fileName)
        if (reason) return reject(invalid(`${reason}: ${JSON.stringify(entry.fileName.slice(0, 200))}`))
        declared += entry.uncompressedSize
        if (declared > limits.maxUnpackedBytes) return reject(invalid(`unpacks to more than ${limits.maxUnpackedBytes} bytes`))
        list.push(entry)
        zip.readEntry()
      })
      zip.on('end', () => resolve(list))
      zip.on('error', (err: Error) => reject(invalid(err.message)))
      zip.readEntry()
    })
    const seen = new Set<string>()
    for (const entry of listed) {
      if (entry.fileName.endsWith('/')) continue
      const name = normalizeName(entry.fileName)
      if (seen.has(name)) throw invalid(`duplicate entry ${JSON.stringify(name.slice(0, 200))}`)
      seen.add(name)
    }
    let index = 0
    for (const entry of listed) {
      if (entry.fileName.endsWith('/')) continue
      const target = path.join(dir, String(index++))
      try {
        await pipeline(await openEntry(zip, entry), createWriteStream(target))
      } catch (err) {
        throw err instanceof AppError ? err : invalid((err as Error).message)
      }
      entries.set(normalizeName(entry.fileName), { path: target, size: entry.uncompressedSize })
    }
  } catch (err) {
    zip.close()
    await dispose()
    throw err
  }
  zip.close()
  return {
    entries,
    async text(name) {
      const entry = entries.get(name)
      if (!entry) throw invalid(`${name} is missing`)
      if (entry.size > ARCHIVE_DOCUMENT_MAX_BYTES) throw invalid(`${name} is larger than ${ARCHIVE_DOCUMENT_MAX_BYTES} bytes`)
      return fs.readFile(entry.path, 'utf8')
    },
    dispose,
  }
}

/** Parse JSON from an archive entry; bad JSON is the archive's fault (400), not ours. */
export function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (err) {
    throw invalid(`${name} is not valid JSON (${(err as Error).message})`)
  }
}
