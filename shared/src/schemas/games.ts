/** Games, notices and events (docs/compatibility.md#game-notice-and-event-shapes). */
import { z } from 'zod'
import { EventType, NoticeType, ParticipationStatus } from '../enums.js'
import { INVITE_CODE_MAX, DEFAULT_BLOOD_BONUS, ORGANIZATION_MAX } from '../limits.js'
import { normalizeBloodBonus } from '../scoring.js'
import { ChallengesByTag, ScoreboardItem } from './scoreboard.js'
import { LockedChallenge } from './challengeRules.js'
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
  /** Newer names (GZ::CTF 0.18) of `wpddl`, `wpNote`, and `writeupRequired`. */
  writeupDeadline: wireDateOut(),
  writeupNote: z.string(),
  writeupRequired: z.boolean(),
  /** Flagwave: the scoreboard freeze and replay settings (docs/scoring.md#freeze). */
  freezeTime: wireDateOut().nullable(),
  replayPublic: z.boolean(),
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
  // The newer names (docs/compatibility.md#newer-gzctf-versions) win over the old ones when both are sent.
  writeupDeadline: keep(wireDate()),
  writeupNote: optionalString(),
  /** Absent or null keeps the stored value (false on create): a v0.17.6 client's full replace does not know it. */
  writeupRequired: keep(wireBool()),
  /** Absent keeps the stored freeze (none on create), null removes it; ISO text or Unix ms (docs/scoring.md#freeze). */
  freezeTime: wireDate().nullable().optional(),
  /** Absent or null keeps the stored value (false on create). */
  replayPublic: keep(wireBool()),
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
  /** Newer members (GZ::CTF 0.18 `writeupRequired`; 1.7 `division` id and `divisions`, none until divisions exist). */
  writeupRequired: z.boolean(),
  division: intOut().nullable(),
  divisions: z.array(z.object({ id: intOut(), name: z.string(), inviteCodeRequired: z.boolean() })),
  /** Flagwave: the public board is frozen now, and the freeze time (set, reached or not; docs/scoring.md#freeze). */
  frozen: z.boolean(),
  freezeTime: wireDateOut().nullable(),
  /** Flagwave: everyone may replay the board once the game ended (docs/scoring.md#replay). */
  replayPublic: z.boolean(),
})
export type DetailedGameInfoModel = z.infer<typeof DetailedGameInfoModel>

/**
 * Request of `POST /api/game/{id}`; `teamId` 0 (the default) then fails with `队伍未找到`.
 * GZ::CTF 1.0 renamed `organization` to `division` (a name); 1.7 sends `divisionId`, which is
 * accepted and ignored while games have no divisions (docs/compatibility.md#newer-gzctf-versions).
 */
export const GameJoinModel = z.object({
  teamId: wireInt().default(0),
  organization: optionalMaxString(ORGANIZATION_MAX, ORGANIZATION_TOO_LONG),
  division: optionalMaxString(ORGANIZATION_MAX, ORGANIZATION_TOO_LONG),
  divisionId: keep(wireInt()),
  inviteCode: optionalString(),
})
export type GameJoinModel = z.infer<typeof GameJoinModel>

/** A division of a game (GZ::CTF 1.7; docs/scoring.md#divisions), as its editors read it (with its invite code). */
export const Division = z.object({
  id: intOut(),
  name: z.string(),
  inviteCode: z.string().nullable(),
  defaultPermissions: intOut(),
  challengeConfigs: z.array(z.object({ challengeId: intOut(), permissions: intOut() })),
})
export type Division = z.infer<typeof Division>

/** `GamePermission` flags: any int from 0 to All (GZ::CTF stores the int as it comes). */
const permissionsField = () => wireInt({ min: 0, message: '权限值无效' })

/** Not a contract limit: more overrides than a game could have challenges are refused. */
const CHALLENGE_CONFIGS_MAX = 1000

/**
 * Request of `POST /api/edit/games/{id}/divisions` and `PUT …/{divisionId}` (GZ::CTF 1.7).
 * `inviteCode` null or empty = none; `defaultPermissions` and `challengeConfigs` null/omitted =
 * keep on update (All and none on create). One override per challenge: the last one wins.
 */
export const DivisionInput = z.object({
  name: requiredString('分组名称是必需的').max(ORGANIZATION_MAX, ORGANIZATION_TOO_LONG),
  inviteCode: optionalMaxString(INVITE_CODE_MAX, '邀请码过长').transform((v) => (v === null || v.trim() === '' ? null : v)),
  defaultPermissions: keep(permissionsField()),
  challengeConfigs: keep(
    z
      .array(z.object({ challengeId: wireInt(), permissions: permissionsField() }), { error: () => 'The JSON value could not be converted to challengeConfigs.' })
      .max(CHALLENGE_CONFIGS_MAX, '题目设置过多'),
  ).transform((list) => (list === null ? null : [...new Map(list.map((c) => [c.challengeId, c])).values()].sort((a, b) => a.challengeId - b.challengeId))),
})
export type DivisionInput = z.infer<typeof DivisionInput>

/** Response of `GET /api/game/{id}/check` (GZ::CTF 1.7). */
export const GameJoinCheckInfoModel = z.object({
  joinedTeams: z.array(z.object({ id: intOut(), division: intOut().nullable() })),
  joinableDivisions: z.array(intOut()),
})

/** Response of `GET /api/game/{id}/details`. */
export const GameDetailModel = z.object({
  challenges: ChallengesByTag,
  rank: ScoreboardItem,
  teamToken: z.string(),
  wpddl: wireDateOut(),
  /** Newer members: `writeupDeadline` = `wpddl` (0.18), `writeupRequired`, `challengeCount` (0.23). */
  writeupDeadline: wireDateOut(),
  writeupRequired: z.boolean(),
  challengeCount: intOut(),
  /**
   * Flagwave: while the board is frozen, the challenges this team solved after the freeze — its
   * own results, which the frozen `rank` and challenge values do not show (docs/scoring.md#freeze).
   */
  solvedAfterFreeze: z.array(intOut()).optional(),
  /** Flagwave: the challenges still locked for the team by their prerequisites (docs/challenge-rules.md#prerequisites). */
  lockedChallenges: z.array(LockedChallenge),
})
export type GameDetailModel = z.infer<typeof GameDetailModel>

export const GameNotice = z.object({
  id: intOut(),
  type: z.enum(NoticeType),
  content: z.string(),
  time: wireDateOut(),
  /** GZ::CTF 0.18's parts of `content`: Normal [text], bloods [team, challenge], NewHint/NewChallenge [challenge]. */
  values: z.array(z.string()),
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
  /**
   * GZ::CTF 0.18's parts of `content`: ContainerStart/Destroy [challengeId, title], FlagSubmit
   * [result, answer, title, challengeId], CheatDetected [title, team, sourceTeam], Normal [text].
   */
  values: z.array(z.string()),
})
export type GameEvent = z.infer<typeof GameEvent>
