/**
 * Every enumeration of the wire contract, spelled exactly as on the wire (docs/compatibility.md#enums).
 * Each enum is a readonly tuple of names in integer-code order, so `names.indexOf(x)`
 * is the code GZ::CTF stores, and a zod enum derived from it validates input.
 */
import { z } from 'zod'

export const Role = ['Banned', 'User', 'Monitor', 'Admin'] as const
export type Role = (typeof Role)[number]

export const RegisterStatus = ['LoggedIn', 'AdminConfirmationRequired', 'EmailConfirmationRequired'] as const
export type RegisterStatus = (typeof RegisterStatus)[number]

/**
 * TaskStatus codes start at -1 (Pending); `taskStatusCode` handles the offset. `Unhealthy` and
 * `Degraded` are GZ::CTF 1.7's (docs/compatibility.md#newer-gzctf-versions): accepted, never written yet.
 */
export const TaskStatus = ['Pending', 'Success', 'Failed', 'Duplicate', 'Denied', 'NotFound', 'Exit', 'Unhealthy', 'Degraded'] as const
export type TaskStatus = (typeof TaskStatus)[number]

export const FileType = ['None', 'Local', 'Remote'] as const
export type FileType = (typeof FileType)[number]

export const ContainerStatus = ['Pending', 'Running', 'Destroyed'] as const
export type ContainerStatus = (typeof ContainerStatus)[number]

export const NoticeType = ['Normal', 'FirstBlood', 'SecondBlood', 'ThirdBlood', 'NewHint', 'NewChallenge'] as const
export type NoticeType = (typeof NoticeType)[number]

export const EventType = ['Normal', 'ContainerStart', 'ContainerDestroy', 'FlagSubmit', 'CheatDetected'] as const
export type EventType = (typeof EventType)[number]

export const SubmissionType = ['Unaccepted', 'FirstBlood', 'SecondBlood', 'ThirdBlood', 'Normal'] as const
export type SubmissionType = (typeof SubmissionType)[number]

export const ParticipationStatus = ['Pending', 'Accepted', 'Rejected', 'Suspended', 'Unsubmitted'] as const
export type ParticipationStatus = (typeof ParticipationStatus)[number]

export const ChallengeType = ['StaticAttachment', 'StaticContainer', 'DynamicAttachment', 'DynamicContainer'] as const
export type ChallengeType = (typeof ChallengeType)[number]

export const ChallengeTag = [
  'Misc',
  'Crypto',
  'Pwn',
  'Web',
  'Reverse',
  'Blockchain',
  'Forensics',
  'Hardware',
  'Mobile',
  'PPC',
  // Newer GZ::CTF categories (AI from 0.19, Pentest and OSINT from 0.23), codes 10–12.
  'AI',
  'Pentest',
  'OSINT',
] as const
export type ChallengeTag = (typeof ChallengeTag)[number]

/** Flag submission status (docs/compatibility.md#enums, "AnswerResult" on the wire). */
export const AnswerResult = ['FlagSubmitted', 'Accepted', 'WrongAnswer', 'NotFound', 'CheatDetected'] as const
export type AnswerResult = (typeof AnswerResult)[number]

/** What the submitting team is told: a detected cheat reads as a wrong answer, so cheaters learn nothing. */
export const maskedStatus = (status: AnswerResult): AnswerResult => (status === 'CheatDetected' ? 'WrongAnswer' : status)

export const CaptchaProvider = ['None', 'GoogleRecaptcha', 'CloudflareTurnstile'] as const
export type CaptchaProvider = (typeof CaptchaProvider)[number]

/**
 * GZ::CTF 1.7's per-division permission flags (docs/scoring.md#divisions), read by shared/src/divisions.ts.
 */
export const GamePermission = {
  JoinGame: 1,
  RankOverall: 2,
  RequireReview: 4,
  ViewChallenge: 256,
  SubmitFlags: 512,
  GetScore: 1024,
  GetBlood: 2048,
  AffectDynamicScore: 4096,
  All: 2147483647,
} as const

/**
 * A challenge container's network (GZ::CTF 1.8). Flagwave puts every container on the platform's
 * one container network (`CONTAINER_NETWORK`), which is `Open`; the others are refused on edit
 * (docs/compatibility.md#newer-gzctf-versions).
 */
export const NetworkMode = ['Open', 'Isolated', 'Custom'] as const
export type NetworkMode = (typeof NetworkMode)[number]

/** How players reach containers, as `GET /api/config` names it (GZ::CTF 1.1). */
export const PortMapping = ['Default', 'PlatformProxy'] as const
export type PortMapping = (typeof PortMapping)[number]

export const LogLevel = ['Information', 'Warning', 'Error', 'Fatal'] as const
export type LogLevel = (typeof LogLevel)[number]

/** Short Chinese texts of AnswerResult used in events and sheets (docs/compatibility.md#enums). */
export const answerResultText: Record<AnswerResult, string> = {
  FlagSubmitted: '成功提交',
  Accepted: '答案正确',
  WrongAnswer: '答案错误',
  NotFound: '实例未知',
  CheatDetected: '作弊检测',
}

/** Chinese names of roles and participation states for audit messages: the log reads as text, not enum names. */
export const roleText: Record<Role, string> = { Banned: '已封禁', User: '用户', Monitor: '监视者', Admin: '管理员' }
export const participationStatusText: Record<ParticipationStatus, string> = {
  Pending: '待审核',
  Accepted: '已通过',
  Rejected: '未通过',
  Suspended: '已禁赛',
  Unsubmitted: '未提交',
}

export const roleRank = (role: Role): number => Role.indexOf(role)

export const isContainerType = (type: ChallengeType): boolean => (ChallengeType.indexOf(type) & 1) === 1
export const isDynamicType = (type: ChallengeType): boolean => (ChallengeType.indexOf(type) & 2) === 2

/**
 * A zod schema for an enum that accepts, like the reference server, the name in any
 * letter case or its integer code, and always yields the canonical name.
 * `offset` is the integer code of the first name (TaskStatus starts at -1).
 */
export function wireEnum<const T extends readonly [string, ...string[]]>(names: T, offset = 0) {
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]))
  return z
    .union([z.string(), z.number()])
    .transform((value, ctx): T[number] => {
      const found =
        typeof value === 'number'
          ? Number.isInteger(value)
            ? names[value - offset]
            : undefined
          : (byLower.get(value.toLowerCase()) ?? (/^-?\d+$/.test(value) ? names[Number(value) - offset] : undefined))
      if (found === undefined) {
        ctx.addIssue({ code: 'custom', message: `The value '${String(value)}' is not valid.` })
        return z.NEVER
      }
      return found
    })
}

/** Flagwave's webhook targets (docs/webhooks.md#targets); not part of the GZ::CTF contract. */
export const WebhookKind = ['Discord', 'Slack', 'Telegram', 'Generic'] as const
export type WebhookKind = (typeof WebhookKind)[number]

/** What a webhook may subscribe to (docs/webhooks.md#events). `test` is only ever sent by the "send test" button. */
export const WebhookEvent = ['blood', 'solve', 'notice', 'gameStart', 'gameEnd'] as const
export type WebhookEvent = (typeof WebhookEvent)[number]

/** A delivery's state in the outbox (docs/webhooks.md#outbox). */
export const WebhookDeliveryStatus = ['Pending', 'Sending', 'Delivered', 'Failed'] as const
export type WebhookDeliveryStatus = (typeof WebhookDeliveryStatus)[number]

/**
 * Why a container could not be created or destroyed: the `reason` member Flagwave adds to the
 * contract's error body (docs/compatibility.md#container-failure-reasons); the title stays the contract's.
 */
export const ContainerFailureReason = ['noProvider', 'imageMissing', 'limitReached', 'engineUnreachable', 'engineError', 'misconfigured'] as const
export type ContainerFailureReason = (typeof ContainerFailureReason)[number]
