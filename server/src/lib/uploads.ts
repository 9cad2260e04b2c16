/**
 * A file received by an upload endpoint. The HTTP layer (http/body.ts) streams multipart parts
 * to temporary files and hands them on in this shape; the domain reads them from disk and never
 * sees the transport. The temporary files are removed after the response.
 */
import { badRequest } from './errors.js'

export interface UploadedFile {
  /** The form field name (`file`, `files`). */
  field: string
  /** Temporary path on disk. */
  path: string
  /** The client's file name, as sent. */
  name: string
  /** The part's declared Content-Type. */
  mimeType: string
  size: number
}

/** The single `file` part of an upload endpoint, or the contract's 400 when it is missing. */
export function requireFile(files: UploadedFile[], field = 'file'): UploadedFile {
  const file = files.find((f) => f.field.toLowerCase() === field)
  if (!file) throw badRequest(`The ${field} field is required.`)
  return file
}
