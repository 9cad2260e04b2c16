/** Challenge administration shapes (docs/compatibility.md#challenge-shapes, #group-edit). */
import { z } from 'zod'
import { ChallengeTag, ChallengeType, ContainerStatus, FileType, NetworkMode, wireEnum } from '../enums.js'
import { DYNAMIC_FLAG_MAX, FLAG_MAX, FLAG_TEMPLATE_MAX } from '../limits.js'
import { longestGeneratedFlag } from '../flags.js'
import {
  intInRange,
  intOut,
  keep,
  optionalMaxString,
  optionalString,
  requiredString,
  stringArray,
  wireBool,
  wireDate,
  wireDateOut,
  wireDouble,
  wireInt,
} from './fields.js'

/**
 * Storage limits the reference does not check (its columns are unbounded): longer values are
 * refused with a 400 instead of failing in the database.
 */
const CHALLENGE_TITLE_MAX = 128
const CHALLENGE_FILE_NAME_MAX = 256
const CONTAINER_IMAGE_MAX = 256
/** Attempts per team and challenge (docs/challenge-rules.md#attempt-limits): 0 = unlimited. */
export const SUBMISSION_LIMIT_MAX = 10000

/** Element of `GET /api/edit/games/{id}/challenges`. */
export const ChallengeInfoModel = z.object({
  id: intOut(),
  title: z.string(),
  tag: z.enum(ChallengeTag),
  type: z.enum(ChallengeType),
  isEnabled: z.boolean(),
  score: intOut(),
  minScore: intOut(),
  originalScore: intOut(),
  /** GZ::CTF 0.25's name of `tag`. */
  category: z.enum(ChallengeTag),
  /** Flagwave's schedule (docs/challenge-rules.md): opening time, deadline, attempts per team (0 = unlimited). */
  releaseTimeUtc: wireDateOut().nullable(),
  deadlineUtc: wireDateOut().nullable(),
  submissionLimit: intOut(),
})
export type ChallengeInfoModel = z.infer<typeof ChallengeInfoModel>

/**
 * Request of `POST /api/edit/games/{id}/challenges` (ChallengeInfoModel on the wire): only
 * `title`, `tag` (or GZ::CTF 0.25's `category`, which wins) and `type` are used; `id`,
 * `isEnabled`, `score`, `minScore`, `originalScore` are ignored (stripped).
 */
export const ChallengeCreateModel = z.object({
  title: requiredString('标题是必需的').min(1, '标题过短').max(CHALLENGE_TITLE_MAX, '标题过长'),
  tag: wireEnum(ChallengeTag).default('Misc'),
  category: keep(wireEnum(ChallengeTag)),
  type: wireEnum(ChallengeType).default('StaticAttachment'),
})
export type ChallengeCreateModel = z.infer<typeof ChallengeCreateModel>

export const Attachment = z.object({
  id: intOut(),
  type: z.enum(FileType),
  url: z.string().nullable(),
  fileSize: intOut().nullable(),
})
export type Attachment = z.infer<typeof Attachment>

export const ContainerInfoModel = z.object({
  status: z.enum(ContainerStatus),
  startedAt: wireDateOut(),
  expectStopAt: wireDateOut(),
  entry: z.string(),
})
export type ContainerInfoModel = z.infer<typeof ContainerInfoModel>

export const FlagInfoModel = z.object({
  id: intOut(),
  flag: z.string(),
  attachment: Attachment.nullable(),
})
export type FlagInfoModel = z.infer<typeof FlagInfoModel>

export const ChallengeEditDetailModel = z.object({
  id: intOut(),
  title: z.string(),
  content: z.string(),
  tag: z.enum(ChallengeTag),
  type: z.enum(ChallengeType),
  hints: z.array(z.string()),
  flagTemplate: z.string().nullable(),
  isEnabled: z.boolean(),
  acceptedCount: intOut(),
  fileName: z.string().nullable(),
  attachment: Attachment.nullable(),
  testContainer: ContainerInfoModel.nullable(),
  flags: z.array(FlagInfoModel),
  containerImage: z.string().nullable(),
  memoryLimit: intOut().nullable(),
  cpuCount: intOut().nullable(),
  storageLimit: intOut().nullable(),
  containerExposePort: intOut().nullable(),
  enableTrafficCapture: z.boolean().nullable(),
  originalScore: intOut(),
  minScoreRate: z.number(),
  difficulty: z.number(),
  /**
   * Newer members (docs/compatibility.md#newer-gzctf-versions): `category` = `tag` (0.25), `exposePort` =
   * `containerExposePort` (1.8), the challenge rules `submissionLimit` (0 = unlimited, 1.6) and
   * `deadlineUtc` (1.7) (docs/challenge-rules.md), and the neutral values of features Flagwave does
   * not have: `disableBloodBonus` false (1.0), `networkMode` `Open` (1.8).
   */
  category: z.enum(ChallengeTag),
  exposePort: intOut().nullable(),
  disableBloodBonus: z.boolean(),
  submissionLimit: intOut(),
  deadlineUtc: wireDateOut().nullable(),
  networkMode: z.enum(NetworkMode),
  /** Flagwave's own: when a scheduled challenge opens by itself (docs/challenge-rules.md#timed-release). */
  releaseTimeUtc: wireDateOut().nullable(),
})
export type ChallengeEditDetailModel = z.infer<typeof ChallengeEditDetailModel>

/** Defaults of a new challenge (docs/compatibility.md#challenge-shapes, ChallengeEditDetailModel). */
export const CHALLENGE_DEFAULTS = Object.freeze({
  content: '',
  hints: [] as string[],
  flagTemplate: null,
  isEnabled: false,
  fileName: 'attachment',
  containerImage: '',
  memoryLimit: 64,
  cpuCount: 1,
  storageLimit: 256,
  containerExposePort: 80,
  enableTrafficCapture: false,
  originalScore: 500,
  minScoreRate: 0.25,
  difficulty: 5,
})

/**
 * Request of `PUT /api/edit/games/{id}/challenges/{cId}` (partial update). Every member
 * yields `null` when omitted or null (= keep), except:
 * - `flagTemplate`: `""`/blank clears the template (left to the endpoint, the raw text is kept);
 * - `fileName`: blank is rejected by the endpoint (`动态附件名不可为空`) after the lookups;
 * - `containerImage`: trimmed;
 * - `enableTrafficCapture`: `undefined` when omitted (means false), `null` when sent as null
 *   (keep), else the boolean. Use `trafficCaptureAfterUpdate` to apply it.
 */
export const ChallengeUpdateModel = z.object({
  title: optionalString()
    .refine((v) => v === null || v.length >= 1, '标题过短')
    .refine((v) => v === null || v.length <= CHALLENGE_TITLE_MAX, '标题过长'),
  content: optionalString(),
  flagTemplate: optionalMaxString(FLAG_TEMPLATE_MAX, 'flag 字符串过长').refine((v) => v === null || longestGeneratedFlag(v) <= DYNAMIC_FLAG_MAX, 'flag 字符串过长'),
  tag: keep(wireEnum(ChallengeTag)),
  hints: keep(stringArray()),
  isEnabled: keep(wireBool()),
  fileName: optionalMaxString(CHALLENGE_FILE_NAME_MAX, '动态附件名过长'),
  containerImage: optionalString()
    .transform((v) => (v === null ? null : v.trim()))
    .refine((v) => v === null || v.length <= CONTAINER_IMAGE_MAX, '容器镜像名过长'),
  memoryLimit: keep(intInRange(32, 1048576, 'MemoryLimit 的值必须介于 32 - 1048576')),
  cpuCount: keep(intInRange(1, 1024, 'CPUCount 的值必须介于 1 - 1024')),
  storageLimit: keep(intInRange(128, 1048576, 'StorageLimit 的值必须介于 128 - 1048576')),
  containerExposePort: keep(wireInt()),
  enableTrafficCapture: wireBool().nullable().optional(),
  originalScore: keep(wireInt()),
  minScoreRate: keep(wireDouble({ min: 0, max: 1, message: 'The field MinScoreRate must be between 0 and 1.' })),
  difficulty: keep(wireDouble()),
  // Newer names (docs/compatibility.md#newer-gzctf-versions), which win over the old ones when both are sent.
  category: keep(wireEnum(ChallengeTag)),
  exposePort: keep(wireInt()),
  // Members of features Flagwave does not have: their neutral values are accepted (a newer client
  // sends back what it read), any other value is refused rather than silently dropped.
  disableBloodBonus: keep(wireBool()).refine((v) => v !== true, '不支持关闭单题的血量奖励'),
  networkMode: keep(wireEnum(NetworkMode)).refine((v) => v === null || v === 'Open', '不支持该网络模式'),
  // Challenge rules (docs/challenge-rules.md). The times: omitted keeps, null clears (a newer client
  // sends back what it read), a time sets. `submissionLimit`: omitted or null keeps, 0 = unlimited.
  submissionLimit: keep(intInRange(0, SUBMISSION_LIMIT_MAX, '提交次数限制必须介于 0 - 10000')),
  deadlineUtc: wireDate().nullable().optional(),
  releaseTimeUtc: wireDate().nullable().optional(),
})
export type ChallengeUpdateModel = z.infer<typeof ChallengeUpdateModel>

/**
 * The stored `enableTrafficCapture` after an update (docs/compatibility.md#challenge-shapes): container type AND
 * (the value sent, false when omitted, the stored value when sent as null).
 */
export function trafficCaptureAfterUpdate(sent: boolean | null | undefined, stored: boolean, type: ChallengeType): boolean {
  const isContainer = (ChallengeType.indexOf(type) & 1) === 1
  const value = sent === undefined ? false : sent === null ? stored : sent
  return isContainer && value
}

export const FlagCreateModel = z.object({
  flag: requiredString('The Flag field is required.').max(FLAG_MAX, 'flag 字符串过长'),
  attachmentType: wireEnum(FileType).default('None'),
  fileHash: optionalString(),
  remoteUrl: optionalString(),
})
export type FlagCreateModel = z.infer<typeof FlagCreateModel>

/** Request body of `POST /api/edit/games/{id}/challenges/{cId}/flags`. */
export const FlagCreateModelList = z.array(FlagCreateModel, {
  error: () => 'The JSON value could not be converted to System.Collections.Generic.List`1[GZCTF.Models.Request.Edit.FlagCreateModel].',
})
export type FlagCreateModelList = z.infer<typeof FlagCreateModelList>

export const AttachmentCreateModel = z.object({
  attachmentType: wireEnum(FileType).default('None'),
  fileHash: optionalString(),
  remoteUrl: optionalString(),
})
export type AttachmentCreateModel = z.infer<typeof AttachmentCreateModel>

export const ChallengeModel = z.object({
  id: intOut(),
  title: z.string(),
  tag: z.enum(ChallengeTag),
  /** GZ::CTF 0.25's name of `tag`. */
  category: z.enum(ChallengeTag),
})
export type ChallengeModel = z.infer<typeof ChallengeModel>
