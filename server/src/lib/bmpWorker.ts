/**
 * BMP decoding off the event loop (docs/architecture.md#bounded-work): bmp-ts is plain
 * JavaScript, and a 3 MiB 1-bit BMP holds 25 million pixels — half a second or more of
 * synchronous work that would stall every other request. lib/images.ts runs this file in a
 * worker thread, one job per worker; it must import nothing but packages and node: modules.
 *
 * In: `{ bytes, width, height, keepAlpha }` (the header already checked by the caller).
 * Out: `{ rgba }`, width × height × 4 bytes, or `{ error }`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { decode } from 'bmp-ts'

interface BmpJob {
  bytes: Uint8Array
  width: number
  height: number
  keepAlpha: boolean
}

/**
 * bmp-ts's raw output is ABGR; 24-bit and palette images come out with alpha 0, so alpha is
 * taken only from 16/32-bit images (where bmp-ts reads the alpha mask, or gives 255).
 */
function toRgba(job: BmpJob): Uint8Array<ArrayBuffer> {
  const decoded = decode(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), { toRGBA: false })
  const src = decoded.data
  const size = job.width * job.height * 4
  const rgba = new Uint8Array(size)
  for (let i = 0; i < size; i += 4) {
    rgba[i] = src[i + 3]!
    rgba[i + 1] = src[i + 2]!
    rgba[i + 2] = src[i + 1]!
    rgba[i + 3] = job.keepAlpha ? src[i]! : 255
  }
  return rgba
}

const job = workerData as BmpJob
try {
  const rgba = toRgba(job)
  parentPort!.postMessage({ rgba }, [rgba.buffer])
} catch (err) {
  parentPort!.postMessage({ error: String((err as Error)?.message ?? err) })
}
