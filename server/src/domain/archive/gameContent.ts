/**
 * A game's reusable content as one record (docs/archive.md#game-archive): its settings,
 * challenges with flags, hints and attachments, and its organisers' notices — what an export
 * writes and a clone copies. Teams, participations, submissions and instances are a game's run,
 * not its content, and are never part of it.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { ArchiveAttachment, ArchiveChallenge, GameArchiveManifest } from '@flagwave/shared/schemas/gameArchive'
import { Attachment } from '../../entities/Attachment.js'
import { Challenge } from '../../entities/Challenge.js'
import { Flag } from '../../entities/Flag.js'
import type { Game } from '../../entities/Game.js'
import { Division } from '../../entities/Division.js'
import { GameNotice } from '../../entities/GameNotice.js'

export type GameSettings = GameArchiveManifest['game']

export interface GameContent {
  game: GameSettings
  challenges: ArchiveChallenge[]
  notices: GameArchiveManifest['notices']
}

function settingsOf(game: Game, organizations: string[] | null): GameSettings {
  return {
    title: game.title,
    summary: game.summary,
    content: game.content,
    hidden: game.hidden,
    practiceMode: game.practiceMode,
    acceptWithoutReview: game.acceptWithoutReview,
    inviteCode: game.inviteCode ?? null,
    organizations,
    teamMemberCountLimit: game.teamMemberCountLimit,
    containerCountLimit: game.containerCountLimit,
    poster: game.posterHash ?? null,
    start: game.start.toISOString(),
    end: game.end.toISOString(),
    wpddl: game.wpddl.toISOString(),
    wpNote: game.wpNote,
    bloodBonus: game.bloodBonus,
  }
}

function attachmentOf(a: Attachment | null | undefined): ArchiveAttachment | null {
  if (!a) return null
  if (a.type === 'Remote') return { type: 'Remote', hash: null, fileName: null, remoteUrl: a.remoteUrl ?? '' }
  return { type: 'Local', hash: a.fileHash ?? null, fileName: a.fileName ?? null, remoteUrl: null }
}

/** Challenge columns that an archive keeps as they are. */
const COPIED_COLUMNS = [
  'title',
  'content',
  'tag',
  'type',
  'isEnabled',
  'fileName',
  'containerImage',
  'memoryLimit',
  'cpuCount',
  'storageLimit',
  'containerExposePort',
  'enableTrafficCapture',
  'originalScore',
] as const

function pick<T, K extends keyof T>(row: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>
  for (const key of keys) out[key] = row[key]
  return out
}

/** The content of `game`, challenges and flags in id order, so two reads of the same game are equal. */
export async function readGameContent(em: EntityManager, game: Game): Promise<GameContent> {
  const challenges = await em.find(Challenge, { game: game.id }, { populate: ['attachment'], orderBy: { id: 'asc' }, refresh: true })
  const flags = challenges.length
    ? await em.find(Flag, { challenge: { $in: challenges.map((c) => c.id) } }, { populate: ['attachment'], orderBy: { id: 'asc' }, refresh: true })
    : []
  const notices = await em.find(GameNotice, { game: game.id, type: 'Normal' }, { orderBy: { publishTime: 'asc', id: 'asc' } })
  // Divisions travel as v0.17.6's organizations (their names); their permissions stay behind (docs/archive.md).
  const divisions = await em.find(Division, { game: game.id }, { orderBy: { id: 'asc' } })
  return {
    game: settingsOf(game, divisions.length > 0 ? divisions.map((d) => d.name) : null),
    challenges: challenges.map((c) => ({
      ...pick(c, COPIED_COLUMNS),
      hints: [...((c.hints as string[] | null) ?? [])],
      flagTemplate: c.flagTemplate ?? null,
      attachment: attachmentOf(c.attachment as Attachment | null),
      minScoreRate: Number(c.minScoreRate),
      difficulty: Number(c.difficulty),
      submissionLimit: c.submissionLimit ?? 0,
      deadlineUtc: c.deadlineUtc ? c.deadlineUtc.toISOString() : null,
      releaseTimeUtc: c.releaseTimeUtc ? c.releaseTimeUtc.toISOString() : null,
      flags: flags.filter((f) => (f.challenge as Challenge).id === c.id).map((f) => ({ flag: f.flag, attachment: attachmentOf(f.attachment as Attachment | null) })),
      // Costed hints and prerequisites (docs/challenge-rules.md); prerequisites by position in this list.
      costedHints: (c.costedHints ?? []).map(({ content, kind, amount, freeAt }) => ({ content, kind, amount, freeAt: freeAt ?? null })),
      prerequisites: (c.prerequisites ?? []).map((id) => challenges.findIndex((x) => x.id === id)).filter((i) => i >= 0),
      lockedTitleVisible: c.lockedTitleVisible,
    })),
    notices: notices.map((n) => ({ content: n.content, publishTime: n.publishTime.toISOString() })),
  }
}

/** Every stored-file hash the content refers to (poster and local attachments), once each. */
export function contentHashes(content: GameContent): string[] {
  const hashes = new Set<string>()
  if (content.game.poster) hashes.add(content.game.poster)
  for (const c of content.challenges) {
    for (const a of [c.attachment, ...c.flags.map((f) => f.attachment)]) if (a?.type === 'Local' && a.hash) hashes.add(a.hash)
  }
  return [...hashes]
}
