/**
 * Attachments and flags (docs/compatibility.md#group-edit). A `Local` attachment of a known file holds
 * one reference on it (its `fileHash` is set only then) and keeps the file's name as its own
 * (docs/architecture.md#stored-files); an unknown hash gives an attachment without file, whose
 * `url` and `fileSize` are null. Replaced or removed attachments release their reference in the
 * same transaction, which holds the challenge's row lock: the challenge owns its attachment and
 * its flags' attachments.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { FileType, TaskStatus } from '@flagwave/shared/enums'
import type { FlagCreateModel } from '@flagwave/shared/schemas/challenges'
import { Attachment } from '../../entities/Attachment.js'
import type { Challenge } from '../../entities/Challenge.js'
import { Flag } from '../../entities/Flag.js'
import type { Game } from '../../entities/Game.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { fileTransaction, type FileWork } from '../files/files.js'
import { rebuildScoreboardAfterEdit } from '../games/rebuild.js'
import { pushChallengeUpdate } from './events.js'
import { lockChallenge } from './lock.js'
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'
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

/** A new attachment in the transaction, or null for `None`; a known file gains a reference. */
async function buildAttachment(tx: EntityManager, files: FileWork, spec: AttachmentSpec): Promise<Attachment | null> {
  if (spec.attachmentType === 'None') return null
  if (spec.attachmentType === 'Remote') return tx.create(Attachment, { type: 'Remote', fileHash: null, remoteUrl: spec.remoteUrl, fileName: null })
  const file = await files.reference(specHash(spec))
  return tx.create(Attachment, { type: 'Local', fileHash: file?.hash ?? null, remoteUrl: null, fileName: file?.name ?? null })
}

/** Remove an attachment row and release its file. */
async function dropAttachment(tx: EntityManager, files: FileWork, attachment: Attachment | null | undefined): Promise<void> {
  if (!attachment) return
  tx.remove(attachment)
  await files.release(attachment.type === 'Local' ? attachment.fileHash : null)
}

/** `POST .../attachment`: replace the challenge-wide attachment (`None` removes it). */
export async function setChallengeAttachment(scope: Scope, actor: Actor, game: Game, challenge: Challenge, spec: AttachmentSpec): Promise<void> {
  assertChallengeAttachmentAllowed(challenge)
  await fileTransaction(scope.em, scope.services.storage, async (tx, files) => {
    const c = await lockChallenge(tx, challenge.id)
    await tx.populate(c, ['attachment'], { refresh: true })
    const previous = c.attachment as Attachment | null
    await files.lock([specHash(spec), previous?.fileHash])
    c.attachment = await buildAttachment(tx, files, spec)
    await dropAttachment(tx, files, previous)
  })
  await scope.services.audit.success(actor, `更新了比赛 #${game.id} 的题目 #${challenge.id} 的附件`)
}

/** `POST .../flags`: append flags, each with its optional attachment, in one transaction. */
export async function addFlags(scope: Scope, actor: Actor, game: Game, challenge: Challenge, models: FlagCreateModel[]): Promise<void> {
  if (models.length === 0) return
  const added = await fileTransaction(scope.em, scope.services.storage, async (tx, files) => {
    const c = await lockChallenge(tx, challenge.id)
    await files.lock(models.map(specHash))
    for (const model of models) {
      const attachment = await buildAttachment(tx, files, model)
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
}

type FlagRemovalStatus = Extract<TaskStatus, 'Success' | 'NotFound'>

/**
 * `DELETE .../flags/{fId}`: `NotFound` when the challenge has no such flag; the last flag
 * disables it, which players see at once (pushed) and the scoreboard follows (rebuilt).
 */
export async function removeFlag(scope: Scope, actor: Actor, game: Game, challenge: Challenge, flagId: number): Promise<FlagRemovalStatus> {
  const result = await fileTransaction(scope.em, scope.services.storage, async (tx, files): Promise<FlagRemoval> => {
    const c = await lockChallenge(tx, challenge.id)
    const flag = await tx.findOne(Flag, { id: flagId, challenge: c.id }, { populate: ['attachment'], refresh: true })
    if (!flag) return { status: 'NotFound', challenge: c, disabled: false }
    await dropAttachment(tx, files, flag.attachment as Attachment | null)
    tx.remove(flag)
    // A DynamicAttachment team holding it loses its attachment (the instance's key is set null):
    // the players' challenge details are stale (docs/performance.md#hot-reads).
    await invalidateAfterCommit(tx, [tags.gameChallenges(game.id)])
    const remaining = await tx.count(Flag, { challenge: c.id, id: { $ne: flag.id } })
    const disabled = remaining === 0 && c.isEnabled
    if (remaining === 0) c.isEnabled = false
    return { status: 'Success', challenge: c, disabled }
  })
  if (result.status === 'Success') {
    if (result.disabled) {
      await pushChallengeUpdate(scope, game, [result.challenge])
      await rebuildScoreboardAfterEdit(scope, game.id)
    }
    await scope.services.audit.success(actor, `删除了比赛 #${game.id} 的题目 #${challenge.id} 的 flag #${flagId}`)
  }
  return result.status
}
