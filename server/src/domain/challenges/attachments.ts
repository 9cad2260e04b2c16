/**
 * Attachments and flags (CONTRACT §3.4.23–3.4.25). A `Local` attachment of a known file holds
 * one reference on it (its `fileHash` is set only then); an unknown hash gives an attachment
 * without file, whose `url` and `fileSize` are null. Replaced or removed attachments release
 * their reference in the same transaction; blobs whose last reference went are deleted by the
 * caller after the commit (`removeBlobs`).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { FileType, TaskStatus } from '@flagwave/shared/enums'
import type { FlagCreateModel } from '@flagwave/shared/schemas/challenges'
import { Attachment } from '../../entities/Attachment.js'
import { Challenge } from '../../entities/Challenge.js'
import { Flag } from '../../entities/Flag.js'
import { LocalFile } from '../../entities/LocalFile.js'
import { releaseFile } from '../files/files.js'
import { lockFiles } from '../games/locks.js'
import { assertChallengeAttachmentAllowed } from './policy.js'

export interface AttachmentSpec {
  attachmentType: FileType
  fileHash: string | null
  remoteUrl: string | null
}

const normalizeHash = (hash: string | null | undefined): string | null => {
  const h = hash?.trim().toLowerCase() ?? ''
  return /^[0-9a-f]{64}$/.test(h) ? h : null
}

/** The file hash an attachment spec would take a reference on, if any. */
export const specHash = (spec: AttachmentSpec): string | null => (spec.attachmentType === 'Local' ? normalizeHash(spec.fileHash) : null)

/**
 * A new attachment in the caller's unit of work, or null for `None`. The caller holds the lock of
 * `specHash(spec)` (see `lockFiles`).
 */
export async function buildAttachment(em: EntityManager, spec: AttachmentSpec): Promise<Attachment | null> {
  if (spec.attachmentType === 'None') return null
  if (spec.attachmentType === 'Remote') return em.create(Attachment, { type: 'Remote', fileHash: null, remoteUrl: spec.remoteUrl })
  const hash = specHash(spec)
  const file = hash ? await em.findOne(LocalFile, { hash }) : null
  if (file) file.referenceCount += 1
  return em.create(Attachment, { type: 'Local', fileHash: file ? file.hash : null, remoteUrl: null })
}

/**
 * Remove an attachment row and release its file; returns the hash whose blob is now
 * unreferenced. The caller holds the lock of the attachment's hash.
 */
export async function dropAttachment(em: EntityManager, attachment: Attachment | null | undefined): Promise<string | null> {
  if (!attachment) return null
  const hash = attachment.type === 'Local' ? attachment.fileHash : null
  em.remove(attachment)
  return releaseFile(em, hash)
}

/** `POST .../attachment`: replace the challenge-wide attachment (`None` removes it). Returns freed hashes. */
export async function setChallengeAttachment(em: EntityManager, challenge: Challenge, spec: AttachmentSpec): Promise<(string | null)[]> {
  assertChallengeAttachmentAllowed(challenge)
  return em.transactional(async (tx) => {
    const c = await tx.findOneOrFail(Challenge, { id: challenge.id }, { populate: ['attachment'] })
    const previous = c.attachment as Attachment | null
    await lockFiles(tx, [specHash(spec), previous?.fileHash])
    c.attachment = await buildAttachment(tx, spec)
    return [await dropAttachment(tx, previous)]
  })
}

/** `POST .../flags`: append flags, each with its optional attachment, in one transaction. */
export async function addFlags(em: EntityManager, challenge: Challenge, models: FlagCreateModel[]): Promise<number> {
  if (models.length === 0) return 0
  return em.transactional(async (tx) => {
    await lockFiles(tx, models.map(specHash))
    const c = tx.getReference(Challenge, challenge.id)
    for (const model of models) {
      const attachment = await buildAttachment(tx, model)
      tx.create(Flag, { challenge: c, flag: model.flag, attachment, isOccupied: false })
    }
    return models.length
  })
}

export interface FlagRemoval {
  status: Extract<TaskStatus, 'Success' | 'NotFound'>
  /** The challenge after the removal (the last flag disables it). */
  challenge: Challenge
  /** The challenge was enabled and lost its last flag, so it is now disabled. */
  disabled: boolean
  freed: (string | null)[]
}

/** `DELETE .../flags/{fId}`: `NotFound` when the challenge has no such flag; the last flag disables it. */
export async function removeFlag(em: EntityManager, challenge: Challenge, flagId: number): Promise<FlagRemoval> {
  return em.transactional(async (tx) => {
    const c = await tx.findOneOrFail(Challenge, { id: challenge.id })
    const flag = await tx.findOne(Flag, { id: flagId, challenge: c.id }, { populate: ['attachment'] })
    if (!flag) return { status: 'NotFound', challenge: c, disabled: false, freed: [] }
    const attachment = flag.attachment as Attachment | null
    await lockFiles(tx, [attachment?.fileHash])
    const freed = await dropAttachment(tx, attachment)
    tx.remove(flag)
    const remaining = await tx.count(Flag, { challenge: c.id, id: { $ne: flag.id } })
    const disabled = remaining === 0 && c.isEnabled
    if (remaining === 0) c.isEnabled = false
    return { status: 'Success', challenge: c, disabled, freed: [freed] }
  })
}
