/** Reading zip archives that the API returns (write-up bundles, traffic captures, game exports), and writing archives to upload. */
import yauzl from 'yauzl'
import { ZipArchive } from 'archiver'

/** Entries of a zip: name → content (names decoded, as yauzl does by default). */
export function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(data, { lazyEntries: true, decodeStrings: true }, (err, zip) => {
      if (err || !zip) return reject(err)
      const out = new Map<string, Buffer>()
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e)
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks))
            zip.readEntry()
          })
        })
      })
      zip.on('end', () => resolve(out))
      zip.on('error', reject)
      zip.readEntry()
    })
  })
}

/** A zip of `entries` (name → bytes), in order, duplicates kept: for building hostile archives too. */
export async function zip(entries: [name: string, data: Buffer | string][], options: { store?: boolean } = {}): Promise<Buffer> {
  const archive = new ZipArchive({ store: options.store ?? false, zlib: { level: 9 } })
  const chunks: Buffer[] = []
  archive.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve())
    archive.on('error', reject)
  })
  for (const [name, data] of entries) archive.append(data, { name })
  await archive.finalize()
  await done
  return Buffer.concat(chunks)
}

const CENTRAL_HEADER = 0x02014b50
const END_OF_CENTRAL_DIRECTORY = 0x06054b50

/** Rewrite the uncompressed size every central-directory header declares (a lying header). */
export function patchDeclaredSizes(data: Buffer, size: number): Buffer {
  const out = Buffer.from(data)
  for (let i = 0; i + 4 <= out.length; i++) if (out.readUInt32LE(i) === CENTRAL_HEADER) out.writeUInt32LE(size, i + 24)
  return out
}

/** Rewrite the entry counts of the end-of-central-directory record. */
export function patchEntryCount(data: Buffer, count: number): Buffer {
  const out = Buffer.from(data)
  const at = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (at < 0 || out.readUInt32LE(at) !== END_OF_CENTRAL_DIRECTORY) throw new Error('no end of central directory')
  out.writeUInt16LE(count, at + 8)
  out.writeUInt16LE(count, at + 10)
  return out
}

/** Rename an entry in the raw bytes (local and central headers): zip writers refuse names such as `../x`, an attacker does not. */
export function renameEntry(data: Buffer, from: string, to: string): Buffer {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('names must have the same length')
  const out = Buffer.from(data)
  const needle = Buffer.from(from)
  for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 1)) Buffer.from(to).copy(out, at)
  return out
}
