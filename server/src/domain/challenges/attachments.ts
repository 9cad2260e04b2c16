/**
 * Attachments and flags (docs/compatibility.md#group-edit). A `Local` attachment of a known file holds
 * one reference on it (its `fileHash` is set only then); an unknown hash gives an attachment
 * without file, whose `url` and `fileSize` are null. Replaced or removed attachments release
 * their reference in the same transaction; blobs whose last reference went are deleted after
 * the commit (`removeBlobs`).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { FileType, TaskStatus } from '@flagwave/shared/enums'
import type { FlagCreateModel } from '@flagwave/shared/schemas/challenges'
import { Attachment } from '../../entities/Attachment.js'
import { Challenge } from '../../entities/Challenge.js'
import { Flag } from '../../entities/Flag.js'
import { LocalFile } from '../../entities/LocalFile.js'
import type { Game } from '../../entities/Game.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { releaseFile, removeBlobs } from '../files/files.js'
import { lockFiles } from '../games/locks.js'
import { rebuildScoreboardAfterEdit } from '../games/rebuild.js'
import { pushChallengeUpdate } from './events.js'
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
const specHash = (spec: AttachmentSpec): string | null => (spec.attachmentType === 'Local' ? normalizeHash(spec.fileHash) : null)

/**
 * A new attachment in the caller's unit of work, or null for `None`. The caller holds the lock of
 * `specHash(spec)` (see `lockFiles`).
 */
async function buildAttachment(em: EntityManager, spec: AttachmentSpec): Promise<Attachment | null> {
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
async function dropAttachment(em: EntityManager, attachment: Attachment | null | undefined): Promise<string | null> {
  if (!attachment) return null
  const hash = attachment.type === 'Local' ? attachment.fileHash : null
  em.remove(attachment)
  return releaseFile(em, hash)
}

/** `POST .../attachment`: replace the challenge-wide attachment (`None` removes it). */
export async function setChallengeAttachment(scope: Scope, actor: Actor, game: Game, challenge: Challenge, spec: AttachmentSpec): Promise<void> {
  assertChallengeAttachmentAllowed(challenge)
  const freed = await scope.em.transactional(async (tx) => {
    const c = await tx.findOneOrFail(Challenge, { id: challenge.id }, { populate: ['attachment'] })
    const previous = c.attachment as Attachment | null
    await lockFiles(tx, [specHash(spec), previous?.fileHash])
    c.attachment = await buildAttachment(tx, spec)
    return [await dropAttachment(tx, previous)]
  })
  await removeBlobs(scope.em, scope.services.storage, freed)
  await scope.services.audit.success(actor, `更新了比赛 #${game.id} 的题目 #${challenge.id} 的附件`)
}

/** `POST .../flags`: append flags, each with its optional attachment, in one transaction. */
export async function addFlags(scope: Scope, actor: Actor, game: Game, challenge: Challenge, models: FlagCreateModel[]): Promise<void> {
  if (models.length === 0) return
  const added = await scope.em.transactional(async (tx) => {
    await lockFiles(tx, models.map(specHash))
    const c = tx.getReference(Challenge, challenge.id)
    for (const model of models) {
      const attachment = await buildAttachment(tx, model)
      tx.create(Flag, { challenge: c, flag: model.flag, attachment, isOccupied: false })
    }
    return models.length
  })
  if (added) await scope.services.audit.success(actor, `为比赛 #${game.id} 的题目 #${challenge.id} 添加了 ${added} 个 flag`)
}

interface FlagRemoval {
  status: FlagRemovalStatus
  /** The challenge after the removal (the last flag disables it). */
  challenge: Challenge
  /** The challenge was enabled and lost its last flag, so it is now disabled. */
  disabled: boolean
  freed: (string | null)[]
}

type FlagRemovalStatus = Extract<TaskStatus, 'Success' | 'NotFound'>

/**
 * `DELETE .../flags/{fId}`: `NotFound` when the challenge has no such flag; the last flag
 * disables it, which players see at once (pushed) and the scoreboard follows (rebuilt).
 */
export async function removeFlag(scope: Scope, actor: Actor, game: Game, challenge: Challenge, flagId: number): Promise<FlagRemovalStatus> {
  const result = await scope.em.transactional(async (tx): Promise<FlagRemoval> => {
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
  if (result.status === 'Success') {
    await removeBlobs(scope.em, scope.services.storage, result.freed)
    if (result.disabled) {
      await pushChallengeUpdate(scope, game, [result.challenge])
      await rebuildScoreboardAfterEdit(scope, game.id)
    }
    await scope.services.audit.success(actor, `删除了比赛 #${game.id} 的题目 #${challenge.id} 的 flag #${flagId}`)
  }
  return result.status
}
