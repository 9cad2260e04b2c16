/**
 * A new game from a `GameContent` (import and clone, docs/archive.md): the game with its own key
 * pair, its challenges, flags, attachments and notices, written in one file transaction — every
 * stored file gains its references there, so a failure leaves neither rows nor blobs behind
 * (docs/architecture.md#stored-files).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { ArchiveAttachment } from '@flagwave/shared/schemas/gameArchive'
import { GamePermission } from '@flagwave/shared/enums'
import { Attachment } from '../../entities/Attachment.js'
import { Challenge } from '../../entities/Challenge.js'
import { Flag } from '../../entities/Flag.js'
import { Game } from '../../entities/Game.js'
import { Division } from '../../entities/Division.js'
import { GameNotice } from '../../entities/GameNotice.js'
import type { Scope } from '../scope.js'
import { fileTransaction, type FileWork, type StoredFile } from '../files/files.js'
import { generateGameKeys } from '../games/keys.js'
import type { GameContent } from './gameContent.js'

/** One reference on the file of `hash` for a new owner, or null when there are no such bytes. */
type ResolveFile = (hash: string) => Promise<StoredFile | null>

/**
 * Prepares the files of a content inside the transaction: stages or locks what it needs (every
 * hash locked before any is touched) and answers how each hash is referenced.
 */
export type FileSource = (files: FileWork) => Promise<ResolveFile>

async function buildAttachment(tx: EntityManager, resolve: ResolveFile, spec: ArchiveAttachment | null): Promise<Attachment | null> {
  if (!spec) return null
  if (spec.type === 'Remote') return tx.create(Attachment, { type: 'Remote', fileHash: null, remoteUrl: spec.remoteUrl, fileName: null })
  const file = spec.hash ? await resolve(spec.hash) : null
  return tx.create(Attachment, { type: 'Local', fileHash: file?.hash ?? null, remoteUrl: null, fileName: file ? (spec.fileName ?? file.name) : null })
}

/** Write `content` as a new game; returns it with its id. */
export async function createGameFromContent(scope: Scope, content: GameContent, source: FileSource): Promise<Game> {
  const { services } = scope
  const keys = generateGameKeys(services.config.XOR_KEY)
  const gameId = await fileTransaction(scope.em, services.storage, async (tx, files) => {
    const resolve = await source(files)
    const s = content.game
    const poster = s.poster ? await resolve(s.poster) : null
    const game = tx.create(Game, {
      ...keys,
      title: s.title,
      summary: s.summary,
      content: s.content,
      hidden: s.hidden,
      practiceMode: s.practiceMode,
      acceptWithoutReview: s.acceptWithoutReview,
      inviteCode: s.inviteCode,
      teamMemberCountLimit: s.teamMemberCountLimit,
      containerCountLimit: s.containerCountLimit,
      posterHash: poster?.hash ?? null,
      start: new Date(s.start),
      end: new Date(s.end),
      wpddl: new Date(s.wpddl),
      wpNote: s.wpNote,
      bloodBonus: s.bloodBonus,
    })
    const created: Challenge[] = []
    for (const c of content.challenges) {
      const { flags, attachment, prerequisites: _prerequisites, costedHints, lockedTitleVisible, submissionLimit, deadlineUtc, releaseTimeUtc, ...columns } = c
      const challenge = tx.create(Challenge, {
        ...columns,
        // Hint ids are the challenge's own: numbered afresh (a new game has no unlocks).
        costedHints: (costedHints ?? []).map((h, i) => ({ id: i + 1, content: h.content, kind: h.kind, amount: h.kind === 'Percent' ? Math.min(h.amount, 100) : h.amount, freeAt: h.freeAt ?? null })),
        lockedTitleVisible: lockedTitleVisible ?? true,
        // The rules as absolute times (docs/archive.md): a disabled challenge keeps an opening time still
        // ahead (one already past would open it at once in the new game); an enabled one's is history.
        submissionLimit: submissionLimit ?? 0,
        deadlineUtc: deadlineUtc ? new Date(deadlineUtc) : null,
        releaseTimeUtc: releaseTimeUtc && !columns.isEnabled && Date.parse(releaseTimeUtc) > Date.now() ? new Date(releaseTimeUtc) : null,
        game,
        acceptedCount: 0,
        // An enabled challenge without a flag could never be solved; the editor refuses it too.
        isEnabled: columns.isEnabled && (flags.length > 0 || !!columns.flagTemplate || columns.type.startsWith('Dynamic')),
        attachment: await buildAttachment(tx, resolve, attachment),
      })
      for (const f of flags) tx.create(Flag, { challenge, flag: f.flag, attachment: await buildAttachment(tx, resolve, f.attachment), isOccupied: false })
      created.push(challenge)
    }
    // Prerequisites name challenges by position: ids exist once flushed. Self and out-of-range positions are dropped.
    if (content.challenges.some((c) => (c.prerequisites ?? []).length > 0)) {
      await tx.flush()
      content.challenges.forEach((c, i) => {
        const ids = [...new Set(c.prerequisites ?? [])].filter((p) => p !== i && p < created.length).map((p) => created[p]!.id)
        created[i]!.prerequisites = ids.sort((a, b) => a - b)
      })
    }
    for (const name of new Set(s.organizations ?? [])) tx.create(Division, { game, name, inviteCode: null, defaultPermissions: GamePermission.All, challengeConfigs: [] })
    for (const n of content.notices) tx.create(GameNotice, { game, type: 'Normal', content: n.content, publishTime: new Date(n.publishTime) })
    await tx.flush()
    return game.id
  })
  return scope.em.findOneOrFail(Game, { id: gameId }, { refresh: true })
}
