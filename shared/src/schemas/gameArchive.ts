/**
 * Flagwave's own game archive (docs/archive.md#game-archive): `manifest.json` plus `files/<sha256>`
 * for every stored file the manifest names. Flagwave shapes, not contract shapes: the archive is
 * read back only by Flagwave, so its fields are named as the columns are. Also the shapes of the
 * import report and of the static-archive options.
 */
import { z } from 'zod'
import { ChallengeTag, ChallengeType, FileType } from '../enums.js'
import { FLAG_MAX, FLAG_TEMPLATE_MAX, INVITE_CODE_MAX, ORGANIZATION_MAX } from '../limits.js'
import { intOut } from './fields.js'
import { GameInfoModel } from './games.js'
import { COSTED_HINT_CONTENT_MAX, COSTED_HINTS_MAX, CostedHint, FIXED_HINT_COST_MAX, PREREQUISITES_MAX } from './challengeRules.js'

/** The version this server writes; an archive of a newer version is refused rather than half read. */
export const GAME_ARCHIVE_VERSION = 1
export const GAME_ARCHIVE_FORMAT = 'flagwave-game'

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 hash')
const text = (max: number) => z.string().max(max)
const isoDate = z.iso.datetime({ offset: true })

const ArchiveAttachment = z.object({
  type: z.enum(FileType).exclude(['None']),
  /** A `Local` attachment's bytes are `files/<hash>`; null keeps an attachment whose file was gone. */
  hash: sha256.nullable(),
  fileName: text(256).nullable(),
  remoteUrl: text(2048).nullable(),
})
export type ArchiveAttachment = z.infer<typeof ArchiveAttachment>

const ArchiveFlag = z.object({
  flag: text(FLAG_MAX).min(1),
  attachment: ArchiveAttachment.nullable(),
})

const ArchiveChallenge = z.object({
  title: text(128).min(1),
  content: text(1_000_000),
  tag: z.enum(ChallengeTag),
  type: z.enum(ChallengeType),
  hints: z.array(text(10_000)).max(100),
  flagTemplate: text(FLAG_TEMPLATE_MAX).nullable(),
  isEnabled: z.boolean(),
  fileName: text(256),
  attachment: ArchiveAttachment.nullable(),
  containerImage: text(256),
  memoryLimit: z.number().int().min(32).max(1048576),
  cpuCount: z.number().int().min(1).max(1024),
  storageLimit: z.number().int().min(128).max(1048576),
  containerExposePort: z.number().int().min(0).max(65535),
  enableTrafficCapture: z.boolean(),
  originalScore: z.number().int().min(0).max(2147483647),
  minScoreRate: z.number().min(0).max(1),
  difficulty: z.number().min(0).max(1e6),
  /** The challenge rules (docs/challenge-rules.md); absent in archives written before them. */
  submissionLimit: z.number().int().min(0).max(10000).optional(),
  deadlineUtc: isoDate.nullable().optional(),
  releaseTimeUtc: isoDate.nullable().optional(),
  flags: z.array(ArchiveFlag).max(10_000),
  /** Costed hints and prerequisites (docs/challenge-rules.md); absent in archives written before them. Prerequisites are indexes into `challenges`. */
  costedHints: z.array(CostedHint.omit({ id: true }).extend({ content: text(COSTED_HINT_CONTENT_MAX), amount: z.number().int().min(1).max(FIXED_HINT_COST_MAX) })).max(COSTED_HINTS_MAX).optional(),
  prerequisites: z.array(z.number().int().min(0).max(4999)).max(PREREQUISITES_MAX).optional(),
  lockedTitleVisible: z.boolean().optional(),
})
export type ArchiveChallenge = z.infer<typeof ArchiveChallenge>

const ArchiveFile = z.object({
  hash: sha256,
  name: text(256).min(1),
  size: z.number().int().min(0),
})

export const GameArchiveManifest = z.object({
  format: z.literal(GAME_ARCHIVE_FORMAT),
  version: z.number().int().min(1).max(GAME_ARCHIVE_VERSION, 'archive written by a newer Flagwave'),
  exportedAt: isoDate,
  game: z.object({
    title: text(128).min(1),
    summary: text(1_000_000),
    content: text(1_000_000),
    hidden: z.boolean(),
    practiceMode: z.boolean(),
    acceptWithoutReview: z.boolean(),
    inviteCode: text(INVITE_CODE_MAX).nullable(),
    organizations: z.array(text(ORGANIZATION_MAX)).max(1000).nullable(),
    teamMemberCountLimit: z.number().int().min(0).max(2147483647),
    containerCountLimit: z.number().int().min(0).max(2147483647),
    poster: sha256.nullable(),
    start: isoDate,
    end: isoDate,
    wpddl: isoDate,
    wpNote: text(1_000_000),
    bloodBonus: z.number().int().min(0),
  }),
  challenges: z.array(ArchiveChallenge).max(5000),
  /** The organisers' own (Normal) notices; blood and hint notices belong to a game's run. */
  notices: z.array(z.object({ content: text(1_000_000), publishTime: isoDate })).max(10_000),
  /** Divisions are not built yet: the list is always empty and read as such (docs/archive.md#game-archive). */
  divisions: z.array(z.unknown()).max(0),
  files: z.array(ArchiveFile).max(10_000),
})
export type GameArchiveManifest = z.infer<typeof GameArchiveManifest>

/** Which source an import was read as. */
export const ImportFormat = ['flagwave', 'ctfcli', 'ctfd'] as const

/** Response of `POST /api/edit/games/import`: the new game and what did and did not carry over. */
export const GameImportResult = z.object({
  game: GameInfoModel,
  format: z.enum(ImportFormat),
  challenges: intOut(),
  files: intOut(),
  /** One line per item taken over with a change worth knowing (a type mapped to another, a score rule approximated). */
  mapped: z.array(z.string()),
  /** One line per item that has no place in Flagwave and was left out. */
  unmapped: z.array(z.string()),
})
export type GameImportResult = z.infer<typeof GameImportResult>

/** Body of `POST /api/edit/games/{id}/archive`: what the static site shows besides the board and notices. */
export const StaticArchiveOptions = z.object({
  challenges: z.boolean().default(true),
  attachments: z.boolean().default(false),
})
export type StaticArchiveOptions = z.infer<typeof StaticArchiveOptions>

