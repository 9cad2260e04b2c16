/** Games, notices and events (docs/compatibility.md#game-notice-and-event-shapes). */
import { z } from 'zod'
import { EventType, NoticeType, ParticipationStatus } from '../enums.js'
import { INVITE_CODE_MAX, DEFAULT_BLOOD_BONUS, ORGANIZATION_MAX } from '../limits.js'
import { normalizeBloodBonus } from '../scoring.js'
import { ChallengesByTag, ScoreboardItem } from './scoreboard.js'
import {
  defaultedString,
  intOut,
  keep,
  optionalMaxString,
  optionalString,
  requiredString,
  stringArray,
  wireBool,
  wireDate,
  wireDateOut,
  wireInt,
  wireLong,
} from './fields.js'

/** Response of the `edit` game endpoints (and element of `GET /api/edit/games`). */
export const GameInfoModel = z.object({
  id: intOut(),
  title: z.string(),
  hidden: z.boolean(),
  summary: z.string(),
  content: z.string(),
  acceptWithoutReview: z.boolean(),
  inviteCode: z.string().nullable(),
  organizations: z.array(z.string()).nullable(),
  teamMemberCountLimit: intOut(),
  containerCountLimit: intOut(),
  poster: z.string().nullable(),
  publicKey: z.string(),
  practiceMode: z.boolean(),
  start: wireDateOut(),
  end: wireDateOut(),
  wpddl: wireDateOut(),
  wpNote: z.string(),
  bloodBonus: intOut(),
})
export type GameInfoModel = z.infer<typeof GameInfoModel>

const epoch = () => new Date(0)

/** Not a contract message: an organization longer than its column (docs/compatibility.md#storage-bounds). */
const ORGANIZATION_TOO_LONG = '参赛单位名称过长'

/** Storage limit of a game title (the reference has none; longer titles are refused, never a 500). */
const GAME_TITLE_MAX = 128

/**
 * Request of `POST /api/edit/games` and `PUT /api/edit/games/{id}` (GameInfoModel on the wire).
 * `id`, `poster` and `publicKey` are ignored (stripped). Omitted members take the docs/compatibility.md#game-notice-and-event-shapes defaults;
 * `organizations` null/omitted = keep the current list on update (none on create), duplicates
 * collapse; `bloodBonus` with a 10-bit field above 1000 becomes the default (docs/scoring.md#blood-bonus).
 */
export const GameInfoInput = z.object({
  title: requiredString('The Title field is required.').max(GAME_TITLE_MAX, '标题过长'),
  hidden: wireBool().default(false),
  summary: defaultedString('Summary'),
  content: defaultedString('Content'),
  acceptWithoutReview: wireBool().default(false),
  inviteCode: optionalMaxString(INVITE_CODE_MAX, '邀请码过长'),
  organizations: keep(stringArray())
    .refine((list) => list === null || list.every((o) => o.length <= ORGANIZATION_MAX), ORGANIZATION_TOO_LONG)
    .transform((list) => (list === null ? null : [...new Set(list)])),
  teamMemberCountLimit: wireInt().default(0),
  containerCountLimit: wireInt().default(3),
  practiceMode: wireBool().default(true),
  start: wireDate().default(epoch),
  end: wireDate().default(epoch),
  wpddl: wireDate().default(epoch),
  wpNote: defaultedString('WpNote'),
  bloodBonus: wireLong().default(DEFAULT_BLOOD_BONUS).transform(normalizeBloodBonus),
})
export type GameInfoInput = z.infer<typeof GameInfoInput>

/** Element of `GET /api/game`. */
export const BasicGameInfoModel = z.object({
  id: intOut(),
  title: z.string(),
  summary: z.string(),
  poster: z.string().nullable(),
  limit: intOut(),
  start: wireDateOut(),
  end: wireDateOut(),
})
export type BasicGameInfoModel = z.infer<typeof BasicGameInfoModel>

/** Response of `GET /api/game/{id}`. */
export const DetailedGameInfoModel = z.object({
  id: intOut(),
  title: z.string(),
  summary: z.string(),
  content: z.string(),
  hidden: z.boolean(),
  organizations: z.array(z.string()).nullable(),
  inviteCodeRequired: z.boolean(),
  poster: z.string().nullable(),
  limit: intOut(),
  teamCount: intOut(),
  organization: z.string().nullable(),
  teamName: z.string().nullable(),
  practiceMode: z.boolean(),
  status: z.enum(ParticipationStatus),
  start: wireDateOut(),
  end: wireDateOut(),
})
export type DetailedGameInfoModel = z.infer<typeof DetailedGameInfoModel>

/** Request of `POST /api/game/{id}`; `teamId` 0 (the default) then fails with `队伍未找到`. */
export const GameJoinModel = z.object({
  teamId: wireInt().default(0),
  organization: optionalMaxString(ORGANIZATION_MAX, ORGANIZATION_TOO_LONG),
  inviteCode: optionalString(),
})
export type GameJoinModel = z.infer<typeof GameJoinModel>

/** Response of `GET /api/game/{id}/details`. */
export const GameDetailModel = z.object({
  challenges: ChallengesByTag,
  rank: ScoreboardItem,
  teamToken: z.string(),
  wpddl: wireDateOut(),
})
export type GameDetailModel = z.infer<typeof GameDetailModel>

export const GameNotice = z.object({
  id: intOut(),
  type: z.enum(NoticeType),
  content: z.string(),
  time: wireDateOut(),
})
export type GameNotice = z.infer<typeof GameNotice>

/** Request of the notice create/update endpoints. */
export const GameNoticeModel = z.object({
  content: requiredString('内容是必需的'),
})
export type GameNoticeModel = z.infer<typeof GameNoticeModel>

export const GameEvent = z.object({
  type: z.enum(EventType),
  content: z.string(),
  time: wireDateOut(),
  user: z.string(),
  team: z.string(),
})
export type GameEvent = z.infer<typeof GameEvent>
