/** Zip archives built while they are sent (game export, static site): entries are read one at a time. */
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import { ZipArchive } from 'archiver'
import type { Services } from '../../services.js'

export interface ZipEntry {
  name: string
  /** Bytes, or a stream opened only when the entry's turn comes. */
  data: Buffer | string | (() => Promise<Readable>)
}

export function zipStream(services: Services, what: string, entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): Readable {
  const zip = new ZipArchive({ zlib: { level: 6 } })
  zip.on('warning', (err) => services.log.warn({ err, what }, 'archive warning'))
  void (async () => {
    for await (const entry of entries) {
      const data = typeof entry.data === 'function' ? await entry.data() : entry.data
      const written = once(zip, 'entry')
      zip.append(data, { name: entry.name })
      // One entry at a time: a blob's file is opened only when the previous one is written.
      await written
    }
    await zip.finalize()
  })().catch((err) => {
    services.log.error({ err, what }, 'archive failed')
    zip.destroy(err as Error)
  })
  return zip
}
