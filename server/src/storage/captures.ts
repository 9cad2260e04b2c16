/**
 * Where traffic captures live (docs/operations.md#containers): one pcap per proxied connection,
 * `{challengeId}/{participationId}/{name}.pcap`. The proxy writes each file locally while the
 * connection lasts (`spoolPath`) and hands it over when it closes (`keep`): on the disk store the
 * spool is the final place; the S3 store uploads it and deletes the local copy, retrying later
 * when the bucket is down, so a capture is never lost to an outage.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { ByteRange } from './blobStore.js'

export interface CaptureRef {
  challengeId: number
  participationId: number
  /** A file name ending in `.pcap`, checked by the caller. */
  name: string
}

/** One capture file of a team. */
export interface CaptureFile {
  name: string
  size: number
  modified: Date
}

export interface CaptureStore {
  /** The local file the proxy writes a capture to while its connection lasts. */
  spoolPath(ref: CaptureRef): string
  /** The capture at `spoolPath(ref)` is complete: make it readable through this store. */
  keep(ref: CaptureRef): Promise<void>
  /** Participation ids that have captures for a challenge. */
  teams(challengeId: number): Promise<number[]>
  /** A team's capture files, by name; null when it has none at all. */
  files(challengeId: number, participationId: number): Promise<CaptureFile[] | null>
  stat(ref: CaptureRef): Promise<CaptureFile | null>
  open(ref: CaptureRef, range?: ByteRange): Promise<Readable>
  /** Deletes a finished capture; false when there was none. */
  remove(ref: CaptureRef): Promise<boolean>
  /** Stop retrying uploads (shutdown). */
  close(): void
}

const byName = (a: CaptureFile, b: CaptureFile) => a.name.localeCompare(b.name)

export class LocalCaptureStore implements CaptureStore {
  constructor(private readonly root: string) {}

  private teamDir(challengeId: number, participationId: number): string {
    return path.join(this.root, String(challengeId), String(participationId))
  }

  spoolPath(ref: CaptureRef): string {
    return path.join(this.teamDir(ref.challengeId, ref.participationId), ref.name)
  }

  async keep(): Promise<void> {
    // Written in place.
  }

  async teams(challengeId: number): Promise<number[]> {
    try {
      const entries = await fs.promises.readdir(path.join(this.root, String(challengeId)), { withFileTypes: true })
      return entries.filter((e) => e.isDirectory() && /^\d+$/.test(e.name)).map((e) => Number(e.name))
    } catch {
      return []
    }
  }

  async files(challengeId: number, participationId: number): Promise<CaptureFile[] | null> {
    const dir = this.teamDir(challengeId, participationId)
    let entries: fs.Dirent[]
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true })
    } catch {
      return null
    }
    const files = await Promise.all(
      entries
        .filter((e) => e.isFile() && e.name.endsWith('.pcap'))
        .map((e) => this.stat({ challengeId, participationId, name: e.name })),
    )
    return files.filter((f): f is CaptureFile => f !== null).sort(byName)
  }

  async stat(ref: CaptureRef): Promise<CaptureFile | null> {
    const stat = await fs.promises.stat(this.spoolPath(ref)).catch(() => null)
    return stat?.isFile() ? { name: ref.name, size: stat.size, modified: stat.mtime } : null
  }

  async open(ref: CaptureRef, range?: ByteRange): Promise<Readable> {
    return fs.createReadStream(this.spoolPath(ref), range)
  }

  async remove(ref: CaptureRef): Promise<boolean> {
    if (!(await this.stat(ref))) return false
    await fs.promises.rm(this.spoolPath(ref), { force: true })
    // The team's directory goes with its last file, so that it is no longer listed as having captures.
    await fs.promises.rmdir(this.teamDir(ref.challengeId, ref.participationId)).catch(() => undefined)
    return true
  }

  close(): void {}
}

export { byName as captureOrder }
