/**
 * Uploaded images (docs/compatibility.md#file-and-image-urls): the bytes are checked by content — the file's
 * signature picks the decoder and the image must then decode — never by its name or declared
 * type. Accepted: PNG, GIF, JPEG, WebP, BMP and TIFF. A GIF is kept byte for byte (animations
 * survive); everything else is re-encoded as WebP, optionally resized to a width with the height
 * following the aspect ratio. libvips (sharp) cannot read BMP, so BMP goes through `bmp-ts` in a
 * worker thread (lib/bmpWorker.ts) and its pixels are handed to sharp raw.
 *
 * No decoding runs on the event loop (docs/architecture.md#bounded-work): sharp works on libuv's
 * thread pool, bmp-ts in its worker. At most `IMAGE_JOBS_MAX` images are processed at once; further
 * uploads wait their turn (first come, first served) rather than being refused, since each one is
 * already bounded by its route's body limit and every upload route is signed in.
 *
 * Used by the user avatar, team avatar (`resizeWidth: 300`) and game poster (full size) uploads.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import { Worker } from 'node:worker_threads'
import sharp, { type Sharp } from 'sharp'
import { Slots } from './slots.js'

type ImageKind = 'png' | 'gif' | 'jpeg' | 'webp' | 'bmp' | 'tiff'

export interface ProcessedImage {
  /** The bytes to store: the original GIF, or the WebP re-encoding. */
  data: Buffer
  /** File extension of `data`: store it as e.g. `avatar.${extension}`. */
  extension: 'gif' | 'webp'
  mimeType: 'image/gif' | 'image/webp'
  /** What the upload turned out to be. */
  source: ImageKind
  width: number
  height: number
}

export interface ProcessImageOptions {
  /** Scale to this width (up or down), height proportional. Absent = keep the size. */
  resizeWidth?: number
}

/** Images of more pixels than this are refused (decompression bombs); 8192 × 8192. */
const MAX_IMAGE_PIXELS = 8192 * 8192
/** Larger inputs are never processed (docs/compatibility.md#file-and-image-urls: 32 MiB); the endpoints cap far lower anyway. */
const MAX_IMAGE_INPUT_BYTES = 32 * 1024 * 1024 - 1
/** WebP cannot hold more than 16383 pixels on a side. */
const WEBP_MAX_SIDE = 16383
/**
 * Images processed at once: one per core but one, at least one, at most four. Each job decodes on
 * one libvips thread, so image work never takes every core from the event loop.
 */
const IMAGE_JOBS_MAX = Math.max(1, Math.min(4, os.availableParallelism() - 1))
sharp.concurrency(1)

const imageJobs = new Slots(IMAGE_JOBS_MAX)

/** The image kind announced by the first bytes, or null. */
function sniffImage(bytes: Uint8Array): ImageKind | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16))
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return 'gif'
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp'
  if (b.length >= 4 && ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0x00) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0x00 && b[3] === 0x2a))) return 'tiff'
  if (b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d) return 'bmp'
  return null
}

/**
 * Decode and convert an uploaded image. Returns null when the bytes are not one of the accepted
 * image types or do not decode (the endpoints answer their own "update failed" title then).
 */
export function processImage(source: string | Buffer, options: ProcessImageOptions = {}): Promise<ProcessedImage | null> {
  return imageJobs.run(() => decodeAndConvert(source, options))
}

async function decodeAndConvert(source: string | Buffer, options: ProcessImageOptions): Promise<ProcessedImage | null> {
  const bytes = typeof source === 'string' ? await readLimited(source) : source
  if (!bytes || bytes.length === 0 || bytes.length > MAX_IMAGE_INPUT_BYTES) return null
  const kind = sniffImage(bytes)
  if (!kind) return null
  try {
    if (kind === 'bmp') return await convert(await bmpToSharp(bytes), 'bmp', options)
    const input = () => sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', pages: 1 })
    const meta = await input().metadata()
    // libvips must agree with the signature (a PNG header glued to something else is refused).
    if (meta.format !== kind) return null
    if (kind === 'gif') {
      // Decode the first frame completely to prove the file is an image, then keep it unchanged.
      const { info } = await input().raw().toBuffer({ resolveWithObject: true })
      return { data: bytes, extension: 'gif', mimeType: 'image/gif', source: 'gif', width: info.width, height: meta.pageHeight ?? info.height }
    }
    return await convert(input().autoOrient(), kind, options)
  } catch {
    return null
  }
}

async function convert(image: Sharp, kind: ImageKind, options: ProcessImageOptions): Promise<ProcessedImage | null> {
  let pipeline = image
  if (options.resizeWidth) pipeline = pipeline.resize({ width: options.resizeWidth })
  const { data, info } = await pipeline.webp({ quality: 85, effort: 4 }).toBuffer({ resolveWithObject: true })
  if (info.width > WEBP_MAX_SIDE || info.height > WEBP_MAX_SIDE) return null
  return { data, extension: 'webp', mimeType: 'image/webp', source: kind, width: info.width, height: info.height }
}

async function readLimited(path: string): Promise<Buffer | null> {
  const stat = await fs.stat(path).catch(() => null)
  if (!stat || !stat.isFile() || stat.size > MAX_IMAGE_INPUT_BYTES) return null
  return fs.readFile(path)
}

/**
 * BMP through bmp-ts, in a worker thread (lib/bmpWorker.ts). The header is checked here first,
 * so that only well-formed, bounded images reach the decoder. RLE-compressed BMPs are refused:
 * bmp-ts misplaces their pixels.
 */
async function bmpToSharp(bytes: Buffer): Promise<Sharp> {
  if (bytes.length < 54) throw new Error('BMP too short')
  const headerSize = bytes.readUInt32LE(14)
  const width = bytes.readInt32LE(18)
  const height = Math.abs(bytes.readInt32LE(22))
  const bitsPerPixel = bytes.readUInt16LE(28)
  const compression = bytes.readUInt32LE(30)
  if (headerSize < 40) throw new Error('BMP core headers are not supported')
  if (width <= 0 || height <= 0 || width * height > MAX_IMAGE_PIXELS) throw new Error('BMP size out of range')
  if (![1, 4, 8, 16, 24, 32].includes(bitsPerPixel)) throw new Error('BMP depth not supported')
  if (compression !== 0 && compression !== 3 && compression !== 6) throw new Error('BMP compression not supported')
  // Uncompressed rows must all be present: bmp-ts would otherwise read past the end.
  const offset = bytes.readUInt32LE(10)
  const stride = Math.ceil((width * bitsPerPixel) / 32) * 4
  if (offset + stride * height > bytes.length) throw new Error('BMP truncated')

  const rgba = await decodeBmpInWorker({ bytes, width, height, keepAlpha: bitsPerPixel === 16 || bitsPerPixel === 32 })
  return sharp(rgba, { raw: { width, height, channels: 4 }, limitInputPixels: MAX_IMAGE_PIXELS })
}

const BMP_WORKER = new URL('./bmpWorker.ts', import.meta.url)

/** Run lib/bmpWorker.ts on one image; the worker ends with the job. */
function decodeBmpInWorker(job: { bytes: Buffer; width: number; height: number; keepAlpha: boolean }): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BMP_WORKER, { workerData: job })
    let settled = false
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      fn()
      void worker.terminate()
    }
    worker.once('message', (msg: { rgba?: Uint8Array; error?: string }) => settle(() => (msg.rgba ? resolve(msg.rgba) : reject(new Error(msg.error ?? 'BMP decoding failed')))))
    worker.once('error', (err) => settle(() => reject(err)))
    worker.once('exit', (code) => settle(() => reject(new Error(`BMP worker exited with code ${code}`))))
  })
}
