/**
 * Challenge administration shapes (docs/compatibility.md#challenge-shapes): ChallengeInfoModel, ChallengeEditDetailModel,
 * FlagInfoModel, Attachment and ContainerInfoModel.
 */
import type {
  Attachment as AttachmentModel,
  ChallengeEditDetailModel,
  ChallengeInfoModel,
  ContainerInfoModel,
  FlagInfoModel,
} from '@flagwave/shared/schemas/challenges'
import { challengeScore, minScore } from '@flagwave/shared/scoring'
import { toWireDate } from '@flagwave/shared/format'
import type { Challenge } from '../entities/Challenge.js'
import type { Flag } from '../entities/Flag.js'
import type { Attachment } from '../entities/Attachment.js'
import type { LocalFile } from '../entities/LocalFile.js'
import type { Container } from '../entities/Container.js'
import { assetUrl } from '../lib/assetUrls.js'

/** Stored files by hash, for attachment URLs and sizes (a missing row = the file is gone). */
type FileIndex = ReadonlyMap<string, Pick<LocalFile, 'hash' | 'name' | 'fileSize'>>

/** Current dynamic score of a challenge (docs/scoring.md#dynamic-score). */
export const currentScore = (c: Pick<Challenge, 'originalScore' | 'minScoreRate' | 'difficulty' | 'acceptedCount'>): number =>
  challengeScore(c.originalScore, Number(c.minScoreRate), Number(c.difficulty), c.acceptedCount)

export function presentChallengeInfo(c: Challenge): ChallengeInfoModel {
  return {
    id: c.id,
    title: c.title,
    tag: c.tag,
    type: c.type,
    isEnabled: c.isEnabled,
    score: currentScore(c),
    minScore: minScore(c.originalScore, Number(c.minScoreRate)),
    originalScore: c.originalScore,
    category: c.tag,
    ...presentRules(c),
  }
}

/** The challenge rules an editor sets (docs/challenge-rules.md). */
function presentRules(c: Pick<Challenge, 'releaseTimeUtc' | 'deadlineUtc' | 'submissionLimit'>) {
  return {
    releaseTimeUtc: c.releaseTimeUtc ? toWireDate(c.releaseTimeUtc) : null,
    deadlineUtc: c.deadlineUtc ? toWireDate(c.deadlineUtc) : null,
    submissionLimit: c.submissionLimit ?? 0,
  }
}

/**
 * `Local`: `/assets/{hash}/{name}` under the attachment's own name (the stored one when it
 * has none) and the size, both null when the file row is gone or the
 * hash was unknown; `Remote`: the URL verbatim. A `None` attachment is no attachment.
 */
function presentAttachment(attachment: Attachment | null | undefined, files: FileIndex): AttachmentModel | null {
  if (!attachment || attachment.type === 'None') return null
  if (attachment.type === 'Remote') return { id: attachment.id, type: 'Remote', url: attachment.remoteUrl ?? null, fileSize: null }
  const file = attachment.fileHash ? files.get(attachment.fileHash) : undefined
  return {
    id: attachment.id,
    type: 'Local',
    url: file ? assetUrl(file.hash, attachment.fileName ?? file.name) : null,
    fileSize: file ? Number(file.fileSize) : null,
  }
}

function presentFlag(flag: Flag, files: FileIndex): FlagInfoModel {
  return { id: flag.id, flag: flag.flag, attachment: presentAttachment(flag.attachment as Attachment | null, files) }
}

/** `entry`: the container GUID in platform-proxy mode, else `{host}:{port}` (public when configured). */
export function presentContainerInfo(container: Pick<Container, 'id' | 'status' | 'isProxy' | 'ip' | 'port' | 'publicIp' | 'publicPort' | 'startedAt' | 'expectStopAt'>): ContainerInfoModel {
  return {
    status: container.status,
    startedAt: toWireDate(container.startedAt),
    expectStopAt: toWireDate(container.expectStopAt),
    entry: container.isProxy ? container.id : `${container.publicIp ?? container.ip}:${container.publicPort ?? container.port}`,
  }
}

/** Everything the edit detail shows, loaded by `loadChallengeDetail()`. */
export interface ChallengeDetailView {
  challenge: Challenge
  flags: Flag[]
  files: FileIndex
  testContainer: Container | null
}

export function presentChallengeEditDetail({ challenge: c, flags, files, testContainer }: ChallengeDetailView): ChallengeEditDetailModel {
  return {
    id: c.id,
    title: c.title,
    content: c.content,
    tag: c.tag,
    type: c.type,
    hints: c.hints ?? [],
    flagTemplate: c.flagTemplate ?? null,
    isEnabled: c.isEnabled,
    acceptedCount: c.acceptedCount,
    fileName: c.fileName,
    attachment: presentAttachment(c.attachment as Attachment | null, files),
    testContainer: testContainer ? presentContainerInfo(testContainer) : null,
    flags: flags.map((f) => presentFlag(f, files)),
    containerImage: c.containerImage,
    memoryLimit: c.memoryLimit,
    cpuCount: c.cpuCount,
    storageLimit: c.storageLimit,
    containerExposePort: c.containerExposePort,
    enableTrafficCapture: c.enableTrafficCapture,
    originalScore: c.originalScore,
    minScoreRate: Number(c.minScoreRate),
    difficulty: Number(c.difficulty),
    category: c.tag,
    exposePort: c.containerExposePort,
    disableBloodBonus: false,
    networkMode: 'Open',
    ...presentRules(c),
  }
}
