/**
 * Judging one answer (docs/compatibility.md#group-game-challenges-and-flags, #dynamic-flags) and the texts the settlement writes (docs/compatibility.md#game-notice-and-event-shapes, #enums).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { answerResultText, type AnswerResult, type ChallengeType, type NoticeType } from '@flagwave/shared/enums'

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()

/**
 * Whether `answer` equals any of `candidates`, in constant time: every candidate is compared
 * (no early exit), on equal-length SHA-256 digests so lengths leak nothing either.
 */
function matchesAny(answer: string, candidates: readonly (string | null | undefined)[]): boolean {
  const a = digest(answer)
  let found = 0
  for (const candidate of candidates) {
    if (candidate === null || candidate === undefined) continue
    found |= timingSafeEqual(a, digest(candidate)) ? 1 : 0
  }
  return found === 1
}

export interface JudgeInput {
  type: ChallengeType
  answer: string
  /** Whether the team holds an instance of the challenge. */
  hasInstance: boolean
  /** The challenge's flags (static types). */
  staticFlags: readonly string[]
  /** DynamicAttachment: the flag assigned to the team's instance. */
  assignedFlag: string | null
  /** DynamicContainer: the flag generated for the team's instance. */
  dynamicFlag: string | null
}

/** Accepted, WrongAnswer or NotFound (cheat detection is a separate step on wrong dynamic answers). */
export function judge(input: JudgeInput): Extract<AnswerResult, 'Accepted' | 'WrongAnswer' | 'NotFound'> {
  if (!input.hasInstance) return 'NotFound'
  const candidates =
    input.type === 'DynamicAttachment' ? [input.assignedFlag] : input.type === 'DynamicContainer' ? [input.dynamicFlag] : input.staticFlags
  return matchesAny(input.answer, candidates) ? 'Accepted' : 'WrongAnswer'
}

/** `[答案正确] {answer}  {title}#{id}` — two spaces before the title (docs/compatibility.md#game-notice-and-event-shapes). */
export const flagSubmitEventText = (result: 'Accepted' | 'WrongAnswer', answer: string, title: string, challengeId: number): string =>
  `[${answerResultText[result]}] ${answer}  ${title}#${challengeId}`

export const cheatEventText = (title: string, team: string, sourceTeam: string): string => `题目 [${title}] 疑似发生违规，相关队伍 [${team}] 和 [${sourceTeam}]`

const BLOOD_NOTICES: readonly [NoticeType, string][] = [
  ['FirstBlood', '一血'],
  ['SecondBlood', '二血'],
  ['ThirdBlood', '三血'],
]

/** The blood notice of the `rank`-th (0-based) counted solver, or null from the fourth on. */
export function bloodNotice(rank: number, team: string, title: string): { type: NoticeType; content: string } | null {
  const entry = BLOOD_NOTICES[rank]
  if (!entry) return null
  return { type: entry[0], content: `恭喜 ${team} 获得 「${title}」 的${entry[1]}` }
}

/** What the submitter sees (status call, team push): a detected cheat reads as a wrong answer. */
