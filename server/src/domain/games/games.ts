/**
 * Game administration (docs/compatibility.md#group-edit): create, replace, delete, poster, write-ups.
 * File references (poster, local attachments, write-ups) are released in the same transaction
 * as the rows that held them; blobs whose last reference went are deleted after the commit.
 */
import { LockMode } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { GameInfoInput } from '@flagwave/shared/schemas/games'
import { boardFreeze, setFreezeTime } from './freeze.js'
import { releaseHeld } from './freezeCommands.js'
import { Game } from '../../entities/Game.js'
import { Challenge } from '../../entities/Challenge.js'
import { Flag } from '../../entities/Flag.js'
import { Attachment } from '../../entities/Attachment.js'
import { Participation } from '../../entities/Participation.js'
import type { LocalFile } from '../../entities/LocalFile.js'
import { AppError, badRequest, notFound } from '../../lib/errors.js'
import type { UploadedFile } from '../../lib/uploads.js'
import { processImage } from '../../lib/images.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { fileTransaction } from '../files/files.js'
import { assetUrl } from '../../lib/assetUrls.js'
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'
import { generateGameKeys } from './keys.js'
import { rebuildScoreboardAfterEdit } from './rebuild.js'
import { recordBloodBonusEdit } from '../scoreboard/replay/record.js'
import { requestScoreboardRebuild } from '../scoreboard/hooks.js'
import { applyOrganizations } from '../divisions/divisions.js'

/** Game lookup of the edit endpoints: 404 `比赛未找到`. */
export async function findGame(em: EntityManager, id: number): Promise<Game> {
  const game = await em.findOne(Game, { id })
  if (!game) throw notFound('比赛未找到')
  return game
}

/** `GET /api/edit/games`: newest first, with the total number of games. */
export async function listGames(em: EntityManager, count: number, skip: number): Promise<{ games: Game[]; total: number }> {
  const total = await em.count(Game, {})
  if (count <= 0) return { games: [], total }
  const games = await em.find(Game, {}, { orderBy: { id: 'desc' }, limit: count, offset: Math.max(0, skip) })
  return { games, total }
}

function assign(game: Game, input: GameInfoInput): void {
  game.title = input.title
  game.content = input.content
  game.summary = input.summary
  game.hidden = input.hidden
  game.practiceMode = input.practiceMode
  game.acceptWithoutReview = input.acceptWithoutReview
  game.inviteCode = input.inviteCode
  game.start = input.start
  game.end = input.end
  game.wpddl = input.writeupDeadline ?? input.wpddl
  game.teamMemberCountLimit = input.teamMemberCountLimit
  game.containerCountLimit = input.containerCountLimit
  game.wpNote = input.writeupNote ?? input.wpNote
  game.bloodBonus = input.bloodBonus
  if (input.writeupRequired !== null) game.writeupRequired = input.writeupRequired
  if (input.freezeTime !== undefined) setFreezeTime(game, input.freezeTime)
  if (input.replayPublic !== null) game.replayPublic = input.replayPublic
}

/** `POST /api/edit/games`: a new game with its own Ed25519 key pair. */
export async function createGame(scope: Scope, actor: Actor, input: GameInfoInput): Promise<Game> {
  const keys = generateGameKeys(scope.services.config.XOR_KEY)
  const game = scope.em.create(Game, {
    ...keys,
    title: input.title,
    summary: input.summary,
    content: input.content,
    hidden: input.hidden,
    practiceMode: input.practiceMode,
    acceptWithoutReview: input.acceptWithoutReview,
    inviteCode: input.inviteCode,
    teamMemberCountLimit: input.teamMemberCountLimit,
    containerCountLimit: input.containerCountLimit,
    posterHash: null,
    start: input.start,
    end: input.end,
    wpddl: input.writeupDeadline ?? input.wpddl,
    wpNote: input.writeupNote ?? input.wpNote,
    writeupRequired: input.writeupRequired ?? false,
    bloodBonus: input.bloodBonus,
    freezeTime: input.freezeTime ?? null,
    unfrozenAt: null,
    replayPublic: input.replayPublic ?? false,
  })
  await scope.em.flush()
  const organizations = input.organizations
  if (organizations?.length) await scope.em.transactional((tem) => applyOrganizations(tem, game.id, organizations))
  await scope.services.audit.success(actor, `创建了比赛 #${game.id} ${game.title}`)
  return game
}

/**
 * `PUT /api/edit/games/{id}`: a full replacement; `organizations` null keeps the divisions, a list
 * is applied to them (docs/scoring.md#divisions) in the same transaction.
 */
export async function updateGame(scope: Scope, actor: Actor, gameId: number, input: GameInfoInput): Promise<Game> {
  let frozenBefore: Date | null = null
  const game = await scope.em.transactional(async (tem) => {
    const stored = await tem.findOne(Game, { id: gameId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    if (!stored) throw notFound('比赛未找到')
    const bloodBonus = stored.bloodBonus
    const now = new Date()
    const started = now >= stored.start
    frozenBefore = boardFreeze(stored)
    assign(stored, input)
    // Replays honour the blood bonus in force before this edit (docs/scoring.md#replay).
    if (started && stored.bloodBonus !== bloodBonus) await recordBloodBonusEdit(tem, stored.id, bloodBonus, now)
    await tem.flush()
    if (input.organizations !== null) await applyOrganizations(tem, stored.id, input.organizations)
    return stored
  })
  // A start moved into the future takes the game away from its non-staff watchers (docs/realtime.md#re-checks).
  scope.events.recheckGame(game.id)
  await rebuildScoreboardAfterEdit(scope, game.id)
  // A freeze removed or moved ahead lets out what it held (docs/scoring.md#freeze).
  if (frozenBefore && !boardFreeze(game)) await releaseHeld(scope, game.id, frozenBefore)
  await scope.services.audit.success(actor, `更新了比赛 #${game.id} ${game.title}`)
  return game
}

/**
 * `DELETE /api/edit/games/{id}`: the game and everything of it (challenges, flags, attachments,
 * participations, registrations, instances, submissions, notices, events, cheat reports) in one
 * transaction, releasing the poster, local attachments and write-ups. Containers of the deleted
 * instances are left to the container reaper, which destroys them by expiry. After the commit:
 * unreferenced blobs go, the game list and notice caches are flushed, the scoreboard is rebuilt.
 */
export async function deleteGame(scope: Scope, actor: Actor, game: Game): Promise<void> {
  const { em, services } = scope
  const gameId = game.id
  const title = game.title
  try {
    await fileTransaction(em, services.storage, async (tx, files) => {
      // The owners of the references are locked before their hashes are read (docs/architecture.md#stored-files).
      const stored = await tx.findOne(Game, { id: gameId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
      if (!stored) throw notFound('比赛未找到')
      await tx.execute('select id from challenges where game_id = ? order by id for update', [gameId])
      await tx.execute('select id from participations where game_id = ? order by id for update', [gameId])
      const challenges = await tx.find(Challenge, { game: gameId }, { populate: ['attachment'], refresh: true })
      const flags = challenges.length ? await tx.find(Flag, { challenge: { $in: challenges.map((c) => c.id) } }, { populate: ['attachment'], refresh: true }) : []
      const attachments = [...challenges.map((c) => c.attachment), ...flags.map((f) => f.attachment)].filter((a): a is Attachment => !!a)
      const participations = await tx.find(Participation, { game: gameId, writeup: { $ne: null } }, { refresh: true })

      const hashes = [
        stored.posterHash,
        ...attachments.map((a) => (a.type === 'Local' ? a.fileHash : null)),
        ...participations.map((p) => (p.writeup as LocalFile | null)?.hash ?? null),
      ]
      await files.lock(hashes)
      for (const hash of hashes) await files.release(hash)

      if (attachments.length) await tx.nativeDelete(Attachment, { id: { $in: attachments.map((a) => a.id) } })
      // Everything else hangs off the game with ON DELETE CASCADE; what was read from it carries its tag.
      await tx.nativeDelete(Game, { id: gameId })
      await invalidateAfterCommit(tx, [tags.game(gameId), tags.games])
    })
  } catch (err) {
    if (err instanceof AppError) throw err
    services.log.error({ err, gameId }, 'game deletion failed')
    throw badRequest('比赛删除失败，文件可能已受损，请重试')
  }
  em.clear()
  // Its watchers are refused, as a connection to an unknown game would be (docs/realtime.md#re-checks).
  scope.events.recheckGame(gameId)
  await rebuildScoreboardAfterEdit(scope, gameId)
  await services.audit.success(actor, `删除了比赛 #${gameId} ${title}`)
}

/** `DELETE /api/edit/games/{id}/writeups`: release every write-up of the game's participations. */
export async function deleteWriteups(scope: Scope, actor: Actor, game: Game): Promise<void> {
  const count = await fileTransaction(scope.em, scope.services.storage, async (tx, files) => {
    await tx.execute('select id from participations where game_id = ? order by id for update', [game.id])
    const participations = await tx.find(Participation, { game: game.id, writeup: { $ne: null } }, { refresh: true })
    const hashes = participations.map((p) => (p.writeup as LocalFile | null)?.hash ?? null)
    await files.lock(hashes)
    for (const [i, p] of participations.entries()) {
      await files.release(hashes[i])
      p.writeup = null
      p.writeupTime = null
      p.writeupName = null
    }
    return participations.length
  })
  await scope.services.audit.success(actor, `删除了比赛 #${game.id} ${game.title} 的 ${count} 份题解`)
}

/** Poster upload limits (docs/compatibility.md#group-edit). */
const POSTER_MAX_BYTES = 3 * 1024 * 1024

/** The checks on the uploaded file that come before the game lookup (docs/compatibility.md#group-edit). */
function assertPosterFile(file: UploadedFile): void {
  if (file.size === 0) throw badRequest('文件非法')
  if (file.size > POSTER_MAX_BYTES) throw badRequest('文件过大')
}

/**
 * `PUT /api/edit/games/{id}/poster`: check the file, find the game, decode, keep a GIF as is or
 * re-encode to WebP at full size, store it, point the game at it and release the previous
 * poster. Returns the stored file's URL.
 */
export async function setPoster(scope: Scope, actor: Actor, gameId: number, file: UploadedFile): Promise<string> {
  const { em, services } = scope
  assertPosterFile(file)
  const game = await findGame(em, gameId)
  const image = await processImage(file.path)
  if (!image) throw badRequest('文件创建失败')
  const name = `poster.${image.extension}`
  const hash = await fileTransaction(em, services.storage, async (tx, files) => {
    const g = await tx.findOneOrFail(Game, { id: game.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    const blob = await files.stage(image.data)
    await files.lock([blob.hash, g.posterHash])
    const stored = await files.store(blob, name)
    await files.release(g.posterHash)
    g.posterHash = stored.hash
    return stored.hash
  })
  game.posterHash = hash
  await services.audit.success(actor, `更新了比赛 #${game.id} ${game.title} 的海报`)
  return assetUrl(hash, name)
}

/**
 * `POST /api/edit/games/{id}/scoreboard/flush` (GZ::CTF 1.x): rebuild the game's board from the
 * database now. Flagwave's board is never stale after a settled solve, so this only repairs a
 * board after changes made behind the server's back (docs/scoring.md#rebuilds).
 */
export async function flushScoreboard(scope: Scope, actor: Actor, gameId: number): Promise<void> {
  const game = await findGame(scope.em, gameId)
  await requestScoreboardRebuild(scope.services, game.id)
  await scope.services.audit.success(actor, `刷新了比赛 #${game.id} 的积分榜`)
}
