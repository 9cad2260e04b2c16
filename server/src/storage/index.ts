/** The stores of STORAGE_URL (docs/operations.md#object-storage): a directory (default `DATA_DIR`) or an S3-compatible bucket. */
import path from 'node:path'
import type { Logger } from 'pino'
import { LocalBlobStore, type BlobStore } from './blobStore.js'
import { LocalCaptureStore, type CaptureStore } from './captures.js'
import type { StorageLocation } from './location.js'
import { s3Stores } from './s3.js'

export interface Storage {
  blobs: BlobStore
  captures: CaptureStore
  close(): void
}

export function createStorage(location: StorageLocation, dataDir: string, log: Logger): Storage {
  if (location.kind === 's3') return s3Stores(location, dataDir, log)
  return {
    blobs: new LocalBlobStore(path.join(location.root, 'files')),
    captures: new LocalCaptureStore(path.join(location.root, 'captures')),
    close: () => undefined,
  }
}
