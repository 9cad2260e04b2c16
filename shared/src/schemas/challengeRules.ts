/**
 * Costed hints and prerequisites (docs/challenge-rules.md#costed-hints, #prerequisites): the
 * editor's request and response bodies, and what a player sees of them. Flagwave's own members;
 * v0.17.6's `hints` (free hints, plain strings) is untouched.
 */
import { z } from 'zod'
import { intOut, keep, requiredString, wireBool, wireDate, wireDateOut, wireInt } from './fields.js'

/** `Fixed`: `amount` points; `Percent`: `amount` % of the challenge's current value when a team unlocks it (floored). */
export const HintCostKind = ['Fixed', 'Percent'] as const
export type HintCostKind = (typeof HintCostKind)[number]

export const COSTED_HINTS_MAX = 20
export const COSTED_HINT_CONTENT_MAX = 4096
export const FIXED_HINT_COST_MAX = 100_000
export const PREREQUISITES_MAX = 50

const costKind = z.enum(HintCostKind, { error: () => '提示的扣分方式无效' })

/** One costed hint as the editor sends it; `id` names an existing hint to keep its unlocks (absent: a new hint). */
const CostedHintInput = z
  .object({
    id: keep(wireInt({ min: 1, message: '提示编号无效' })),
    content: requiredString('提示内容是必需的').max(COSTED_HINT_CONTENT_MAX, '提示内容过长'),
    kind: costKind,
    amount: wireInt({ min: 1, max: FIXED_HINT_COST_MAX, message: '提示的扣分无效' }),
    /** From this moment the hint is free and shown to every team (null: never). */
    freeAt: keep(wireDate()),
  })
  .refine((h) => h.kind !== 'Percent' || h.amount <= 100, { message: '提示的扣分比例须在 1 - 100 之间', path: ['amount'] })

/** Request of `PUT /api/edit/games/{id}/challenges/{cId}/hints`: the whole list, in display order. */
export const CostedHintsInput = z.object({
  hints: z.array(CostedHintInput, { error: () => '提示列表无效' }).max(COSTED_HINTS_MAX, '提示过多'),
})
export type CostedHintsInput = z.infer<typeof CostedHintsInput>

/** A costed hint as stored and as the editor reads it. */
export const CostedHint = z.object({
  id: intOut(),
  content: z.string(),
  kind: z.enum(HintCostKind),
  amount: intOut(),
  /** When it becomes free for everyone (wire date), or null. Absent in hints stored before it. */
  freeAt: wireDateOut().nullable().optional(),
})
export type CostedHint = z.infer<typeof CostedHint>

/** What a team sees of a costed hint: its cost now, whether it unlocked it, and the content only once unlocked. */
export const CostedHintState = z.object({
  id: intOut(),
  kind: z.enum(HintCostKind),
  amount: intOut(),
  /** Points unlocking costs now (a percentage of the current value), or what it cost when unlocked. */
  cost: intOut(),
  unlocked: z.boolean(),
  content: z.string().nullable(),
  /** When it becomes free for everyone, or null; once passed the hint is shown unlocked at no cost. */
  freeAt: wireDateOut().nullable(),
})
export type CostedHintState = z.infer<typeof CostedHintState>

/** Request and response of `…/challenges/{cId}/prerequisites`: the challenges to solve first, and whether a locked challenge shows its title. */
export const PrerequisitesInput = z.object({
  prerequisites: z.array(wireInt({ min: 1, message: '前置题目无效' }), { error: () => '前置题目列表无效' }).max(PREREQUISITES_MAX, '前置题目过多'),
  lockedTitleVisible: keep(wireBool()),
})
export type PrerequisitesInput = z.infer<typeof PrerequisitesInput>

export const PrerequisitesModel = z.object({
  prerequisites: z.array(intOut()),
  lockedTitleVisible: z.boolean(),
})
export type PrerequisitesModel = z.infer<typeof PrerequisitesModel>

/** A challenge locked for the team on its board (GameDetailModel's Flagwave member `lockedChallenges`). */
export const LockedChallenge = z.object({
  id: intOut(),
  /** The prerequisites not solved yet. */
  requires: z.array(z.object({ id: intOut(), title: z.string() })),
})
export type LockedChallenge = z.infer<typeof LockedChallenge>

/** Whether a hint is free for everyone at `now` (its `freeAt` has passed). */
export const hintFreeAt = (hint: Pick<CostedHint, 'freeAt'>, now: number): boolean => !!hint.freeAt && Date.parse(hint.freeAt) <= now

/** The percentage cost of a hint on a challenge worth `score` now (floored, at least 0). */
export const hintCost = (hint: Pick<CostedHint, 'kind' | 'amount'>, score: number): number =>
  hint.kind === 'Fixed' ? hint.amount : Math.max(0, Math.floor((score * hint.amount) / 100))
