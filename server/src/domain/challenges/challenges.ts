/**
 * Challenge administration (docs/compatibility.md#group-edit). An update that enables a
 * challenge creates the missing team instances and, in a running game, a `NewChallenge` notice;
 * disabling it withdraws its NewChallenge and NewHint notices, so its title does not stay readable;
 * changed hints of an enabled challenge in a running game give a `NewHint` notice. Notices and
 * score changes are queued on the scope's events and go out after the commit.
 */
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'
import type { EntityManager } from '@mikro-orm/postgresql'
import { CHALLENGE_DEFAULTS, trafficCaptureAfterUpdate, type ChallengeCreateModel, type ChallengeUpdateModel } from '@flagwave/shared/schemas/challenges'
import { Challenge } from '../../entities/Challenge.js'
import { Flag } from '../../entities/Flag.js'
import { Attachment } from '../../entities/Attachment.js'
import { LocalFile } from '../../entities/LocalFile.js'
import { Container } from '../../entities/Container.js'
import type { Game } from '../../entities/Game.js'
import type { GameNotice } from '../../entities/GameNotice.js'
import { notFound } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { fileTransaction } from '../files/files.js'
import { isGameActive } from '../games/policy.js'
import { rebuildScoreboardAfterEdit, rebuildScoreboardBeforeNotice } from '../games/rebuild.js'
import { recordChallengeEdit } from '../scoreboard/replay/record.js'
import { addNotice, noticeText, withdrawChallengeNotices } from '../notices/notices.js'
import { pushNotices } from '../notices/events.js'
import { pushChallengeUpdate } from './events.js'
import { lockChallenge } from './lock.js'
import { assertChallengeUpdate, isBlank } from './policy.js'
import { scoringChanged, scoringSnapshot } from './scores.js'
import { releaseAfterUpdate } from './rules.js'

/** Challenge lookup of the edit endpoints (after the game lookup): 404 `题目未找到`. */
export async function findChallenge(em: EntityManager, gameId: number, challengeId: number): Promise<Challenge> {
  const challenge = await em.findOne(Challenge, { id: challengeId, game: gameId })
  if (!challenge) throw notFound('题目未找到')
  return challenge
}

/** `GET .../challenges`: by id; an unknown game simply has none. */
export async function listChallenges(em: EntityManager, gameId: number): Promise<Challenge[]> {
  return em.find(Challenge, { game: gameId }, { orderBy: { id: 'asc' } })
}

/** `POST .../challenges`: a disabled challenge with the defaults of docs/compatibility.md#challenge-shapes. */
export async function createChallenge(scope: Scope, actor: Actor, game: Game, model: ChallengeCreateModel): Promise<Challenge> {
  const challenge = scope.em.create(Challenge, {
    ...CHALLENGE_DEFAULTS,
    hints: [],
    game,
    title: model.title,
    tag: model.category ?? model.tag,
    type: model.type,
    acceptedCount: 0,
    attachment: null,
  })
  await scope.em.flush()
  await scope.services.audit.success(actor, `添加了比赛 #${game.id} 的题目 #${challenge.id} ${challenge.title}`)
  return challenge
}

/** Everything the edit detail shows of a challenge. */
interface ChallengeDetail {
  challenge: Challenge
  flags: Flag[]
  /** Stored files by hash (a missing entry = the file is gone). */
  files: Map<string, LocalFile>
  testContainer: Container | null
}

/** Flags (with attachments), the stored files they point at and the running test container. */
export async function loadChallengeDetail(em: EntityManager, challenge: Challenge): Promise<ChallengeDetail> {
  await em.populate(challenge, ['attachment'])
  const flags = await em.find(Flag, { challenge: challenge.id }, { populate: ['attachment'], orderBy: { id: 'asc' } })
  const hashes = [challenge.attachment as Attachment | null, ...flags.map((f) => f.attachment as Attachment | null)]
    .map((a) => a?.fileHash)
    .filter((h): h is string => !!h)
  const files = hashes.length ? await em.find(LocalFile, { hash: { $in: [...new Set(hashes)] } }) : []
  const testContainer = await em.findOne(
    Container,
    { testChallengeId: challenge.id, status: { $ne: 'Destroyed' } },
    { orderBy: { startedAt: 'desc' } },
  )
  return { challenge, flags, files: new Map(files.map((f) => [f.hash, f])), testContainer }
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const sa = new Set(a)
  const sb = new Set(b)
  return sa.size === sb.size && [...sa].every((x) => sb.has(x))
}

/**
 * `PUT .../challenges/{cId}`: the partial update of ChallengeUpdateModel (flags untouched), its
 * instances and notices, in one transaction; then the pushes of the new notices and of changed
 * scoring, the notice cache flush (when there are new notices) and the scoreboard rebuild.
 */
export async function updateChallenge(
  scope: Scope,
  actor: Actor,
  game: Game,
  challenge: Challenge,
  model: ChallengeUpdateModel,
  now: Date = new Date(),
): Promise<Challenge> {
  const em = scope.em
  const active = isGameActive(game, now)

  const result = await em.transactional(async (tx) => {
    // Flags are counted under the challenge's row lock, which flag removal takes too: enabling
    // cannot race the removal of the last flag.
    const c = await lockChallenge(tx, challenge.id)
    // The opening time decides the switch with it (docs/challenge-rules.md#timed-release); a
    // challenge scheduled to open needs its flags as one enabled now does.
    const release = releaseAfterUpdate(c, model, now)
    const enable = release.isEnabled
    const willOpen = enable === true || (model.releaseTimeUtc != null && release.releaseTimeUtc !== null)
    const flagCount = willOpen ? await tx.count(Flag, { challenge: c.id }) : 1
    assertChallengeUpdate(c, flagCount, { ...model, isEnabled: willOpen ? true : enable })
    const before = scoringSnapshot(c)
    const wasEnabled = c.isEnabled
    c.releaseTimeUtc = release.releaseTimeUtc
    if (model.deadlineUtc !== undefined) c.deadlineUtc = model.deadlineUtc
    if (model.submissionLimit !== null) c.submissionLimit = model.submissionLimit
    const hintsUpdated = model.hints !== null && model.hints.length > 0 && !sameSet(model.hints, c.hints ?? [])

    if (model.title !== null) c.title = model.title
    if (model.content !== null) c.content = model.content
    const tag = model.category ?? model.tag
    if (tag !== null) c.tag = tag
    if (model.hints !== null) c.hints = model.hints
    if (enable !== null) c.isEnabled = enable
    if (model.cpuCount !== null) c.cpuCount = model.cpuCount
    if (model.memoryLimit !== null) c.memoryLimit = model.memoryLimit
    if (model.storageLimit !== null) c.storageLimit = model.storageLimit
    if (model.containerImage !== null) c.containerImage = model.containerImage
    const exposePort = model.exposePort ?? model.containerExposePort
    if (exposePort !== null) c.containerExposePort = exposePort
    if (model.originalScore !== null) c.originalScore = model.originalScore
    if (model.minScoreRate !== null) c.minScoreRate = model.minScoreRate
    if (model.difficulty !== null) c.difficulty = model.difficulty
    if (model.fileName !== null) c.fileName = model.fileName
    if (model.flagTemplate !== null) c.flagTemplate = isBlank(model.flagTemplate) ? null : model.flagTemplate
    c.enableTrafficCapture = trafficCaptureAfterUpdate(model.enableTrafficCapture, c.enableTrafficCapture, c.type)

    const notices: GameNotice[] = []
    if (enable === true) {
      await ensureInstances(tx, game.id, c.id)
      // Announced once per enabling: saving an enabled challenge again is no news.
      if (active && !wasEnabled) notices.push(addNotice(tx, game.id, 'NewChallenge', noticeText.newChallenge(c.title), now, c.id))
    }
    if (enable === false && wasEnabled) await withdrawChallengeNotices(tx, c.id)
    // Replays honour the values in force before this edit (docs/scoring.md#replay).
    if (now >= game.start && scoringChanged(before, c)) await recordChallengeEdit(tx, game.id, c.id, before, now)
    if (active && c.isEnabled && hintsUpdated) notices.push(addNotice(tx, game.id, 'NewHint', noticeText.newHint(c.title), now, c.id))
    return { challenge: c, notices, scoringChanged: scoringChanged(before, c) }
  })

  await pushNotices(scope.em, scope.events, game.id, result.notices)
  if (result.scoringChanged) await pushChallengeUpdate(scope, game, [result.challenge])
  // An opening's board goes out before its notice (the request's outbox sends the notice after this).
  if (result.notices.some((n) => n.type === 'NewChallenge')) await rebuildScoreboardBeforeNotice(scope, game.id)
  else await rebuildScoreboardAfterEdit(scope, game.id)
  await scope.services.audit.success(actor, `更新了比赛 #${game.id} 的题目 #${result.challenge.id} ${result.challenge.title}`)
  return result.challenge
}

/**
 * An instance of the challenge for every participation of the game that has none (GZ::CTF
 * `EnsureInstances`); a concurrent join that created one first is not an error.
 */
export async function ensureInstances(em: EntityManager, gameId: number, challengeId: number): Promise<number> {
  const res = await em.execute<{ affectedRows?: number; rowCount?: number }>(
    `insert into instances (participation_id, challenge_id, is_loaded)
     select p.id, ?, false from participations p where p.game_id = ?
     on conflict (participation_id, challenge_id) do nothing`,
    [challengeId, gameId],
    'run',
  )
  return Number(res.affectedRows ?? res.rowCount ?? 0)
}

/**
 * `DELETE .../challenges/{cId}`: the challenge, its attachment and every flag attachment, with
 * their file references, in one transaction (flags, instances and submissions cascade); then
 * the blobs whose last reference went are deleted and the scoreboard is rebuilt.
 */
export async function deleteChallenge(scope: Scope, actor: Actor, game: Game, challenge: Challenge): Promise<void> {
  const challengeId = challenge.id
  const title = challenge.title
  await fileTransaction(scope.em, scope.services.storage, async (tx, files) => {
    const c = await lockChallenge(tx, challenge.id)
    await tx.populate(c, ['attachment'], { refresh: true })
    const flags = await tx.find(Flag, { challenge: c.id }, { populate: ['attachment'], refresh: true })
    const attachments = [c.attachment as Attachment | null, ...flags.map((f) => f.attachment as Attachment | null)].filter((a): a is Attachment => !!a)
    const hashes = attachments.map((a) => (a.type === 'Local' ? a.fileHash : null))
    await files.lock(hashes)
    for (const hash of hashes) await files.release(hash)
    if (attachments.length) await tx.nativeDelete(Attachment, { id: { $in: attachments.map((a) => a.id) } })
    await tx.nativeDelete(Challenge, { id: c.id })
    // No challenge keeps requiring it (docs/challenge-rules.md#prerequisites).
    await tx.execute(
      `update challenges set prerequisites = coalesce((select jsonb_agg(e) from jsonb_array_elements(prerequisites) e where e <> to_jsonb(?::int)), '[]'::jsonb)
        where game_id = ? and prerequisites @> to_jsonb(array[?::int])`,
      [c.id, game.id, c.id],
    )
    await invalidateAfterCommit(tx, [tags.gameChallenges(game.id)])
  })
  await rebuildScoreboardAfterEdit(scope, game.id)
  await scope.services.audit.success(actor, `删除了比赛 #${game.id} 的题目 #${challengeId} ${title}`)
}
