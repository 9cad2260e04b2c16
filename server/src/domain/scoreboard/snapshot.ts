/**
 * One version of a game's scoreboard as it is served: its JSON serialised once, the headers of
 * every answer, and the gzipped body computed once, off the event loop (http/scoreboardRead.ts).
 */
import { promisify } from 'node:util'
import { gzip as gzipCallback } from 'node:zlib'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { msTimesOfText } from '../../lib/jsonText.js'

const gzip = promisify(gzipCallback)

/** The answers http/scoreboardRead.ts writes without Koa. */
type RawAnswer = 'json' | 'gzip' | 'notModified'

/** One version of a game's scoreboard. */
export class ScoreboardSnapshot {
  private parsed: ScoreboardModel | undefined
  private readonly plain: Encoding
  private validators: Readonly<Record<string, string>> | undefined
  private jsonBytes: Buffer | undefined
  private readonly raw = new Map<RawAnswer, string[]>()
  private msVariant: Encoding | undefined

  constructor(
    readonly gameId: number,
    readonly version: number,
    readonly json: string,
    /** Game start, epoch milliseconds. */
    readonly start: number,
    model?: ScoreboardModel,
    /**
     * Epoch ms from which this version may no longer be served to the public: a live board's
     * pending freeze time (docs/scoring.md#freeze); Infinity otherwise.
     */
    readonly validUntil: number = Infinity,
  ) {
    this.parsed = model
    this.plain = new Encoding(json)
  }

  /** Whether it may still be served to the public at `now` (a freeze time has not passed it). */
  servable(now: number = Date.now()): boolean {
    return now < this.validUntil
  }

  /** A weak validator carrying the version (both encodings share it). */
  get etag(): string {
    return `W/"${this.version}"`
  }

  /** The headers every answer of this version carries (built once: the board is read far more often than it changes). */
  get headers(): Readonly<Record<string, string>> {
    return (this.validators ??= Object.freeze({
      ETag: this.etag,
      'X-Scoreboard-Version': String(this.version),
      'Cache-Control': 'no-cache',
      Vary: 'Accept-Encoding, X-GZCTF-Compat',
      'X-Content-Type-Options': 'nosniff',
    }))
  }

  /** The JSON as bytes, encoded once. */
  get jsonBuffer(): Buffer {
    return (this.jsonBytes ??= Buffer.from(this.json))
  }

  /**
   * Every header of an answer as Node's flat list, for `writeHead` (http/scoreboardRead.ts):
   * built once per kind, the gzipped kind only once the gzipped copy is ready.
   */
  rawHeaders(kind: RawAnswer): string[] {
    let list = this.raw.get(kind)
    if (!list) {
      list = Object.entries(this.headers).flat()
      if (kind !== 'notModified') list.push('Content-Type', 'application/json; charset=utf-8')
      if (kind === 'gzip') list.push('Content-Encoding', 'gzip', 'Content-Length', String(this.gzippedNow()!.length))
      if (kind === 'json') list.push('Content-Length', String(this.jsonBuffer.length))
      this.raw.set(kind, list)
    }
    return list
  }

  /** The contract's ScoreboardModel (read-only). */
  get model(): ScoreboardModel {
    return (this.parsed ??= JSON.parse(this.json) as ScoreboardModel)
  }

  /**
   * The JSON with times as Unix milliseconds, for clients that opted in to GZ::CTF's newer forms
   * (http/compat.ts): converted and gzipped once per version, on first demand.
   */
  get ms(): Encoding {
    return (this.msVariant ??= new Encoding(msTimesOfText(this.json)))
  }

  /** The JSON gzipped, computed once per version off the event loop. */
  gzipped(): Promise<Buffer> {
    return this.plain.gzipped()
  }

  /** The gzipped JSON if it is ready (starting it otherwise), without waiting. */
  gzippedNow(): Buffer | undefined {
    return this.plain.gzippedNow()
  }
}

/** One encoding of a version's JSON with its gzipped copy, computed once off the event loop. */
class Encoding {
  private compressed: Promise<Buffer> | undefined
  private compressedBuffer: Buffer | undefined
  constructor(readonly json: string) {}

  gzipped(): Promise<Buffer> {
    return (this.compressed ??= gzip(this.json, { level: 6 }).then((buffer) => (this.compressedBuffer = buffer)))
  }

  gzippedNow(): Buffer | undefined {
    if (!this.compressedBuffer) void this.gzipped().catch(() => undefined)
    return this.compressedBuffer
  }
}
