/** What the importers share (docs/archive.md#import): the shape of what they read, and their checks. */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import type { z } from 'zod'
import type { ImportFormat } from '@flagwave/shared/schemas/gameArchive'
import { badRequest } from '../../lib/errors.js'
import type { GameContent } from './gameContent.js'

/** A file the content names by hash, and where its bytes wait on disk. */
export interface SourceFile {
  path: string
  name: string
}

/** What a reader made of an upload. */
export interface ReadImport {
  format: (typeof ImportFormat)[number]
  content: GameContent
  sources: Map<string, SourceFile>
  mapped: string[]
  unmapped: string[]
}

export const invalid = (reason: string) => badRequest(`压缩包无效：${reason}`)

/** The first zod issue of a document, with where it is. */
export function schemaProblem(document: string, error: z.ZodError): Error {
  const issue = error.issues[0]!
  return invalid(`${document}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
}

/** The SHA-256 of a file on disk, as the blob store names it. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(file), hash)
  return hash.digest('hex')
}

