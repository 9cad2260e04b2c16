/**
 * Scoring (docs/scoring.md#blood-bonus, #dynamic-score, #incremental-engine): pure functions shared by the scoreboard engine,
 * the admin forms and the tests. Arithmetic mirrors GZ::CTF v0.17.6: the dynamic score is
 * computed in doubles and floored; blood factors are single-precision floats
 * (`field / 1000f + 1.0f`) and a blood solve is `Convert.ToInt32(score * factor)`, i.e. the
 * float product rounded half to even.
 */
import { DEFAULT_BLOOD_BONUS } from './limits.js'
import type { SubmissionType } from './enums.js'

/** One 10-bit field of the blood bonus: thousandths, 0–1000. */
export const BLOOD_BONUS_BASE = 1000
const MASK = 0x3ff
const SHIFT_FIRST = 2 ** 20
const SHIFT_SECOND = 2 ** 10

/** The three blood bonuses, each in thousandths (50 = +5 %). */
export interface BloodBonusParts {
  first: number
  second: number
  third: number
}

/** 0 = first blood, 1 = second, 2 = third. */
export type BloodRank = 0 | 1 | 2

/** The scoreboard's SubmissionType of each blood rank, in rank order. */
export const BLOOD_TYPES = ['FirstBlood', 'SecondBlood', 'ThirdBlood'] as const satisfies readonly SubmissionType[]

/** The blood rank a scoreboard cell's type stands for (null for a normal solve or none). */
export function bloodRankOf(type: SubmissionType): BloodRank | null {
  const rank = (BLOOD_TYPES as readonly SubmissionType[]).indexOf(type)
  return rank < 0 ? null : (rank as BloodRank)
}

/**
 * Current score of a challenge: `n ≤ 1 ? S : ⌊S · (r + (1 − r) · e^((1 − n) / d))⌋`, where `n` is the
 * number of teams that solved it before the game end.
 */
export function challengeScore(originalScore: number, minScoreRate: number, difficulty: number, acceptedCount: number): number {
  if (acceptedCount <= 1) return originalScore
  return Math.floor(originalScore * (minScoreRate + (1.0 - minScoreRate) * Math.exp((1 - acceptedCount) / difficulty)))
}

/** Lowest score a challenge can reach: `⌊minScoreRate · originalScore⌋`. */
export function minScore(originalScore: number, minScoreRate: number): number {
  return Math.floor(minScoreRate * originalScore)
}

/** The 10-bit field at `shift` of a 64-bit value, with .NET `long` semantics (`(v >> s) & 0x3ff`). */
function field(value: number, shiftBits: number): number {
  if (Number.isSafeInteger(value)) return Number((BigInt(value) >> BigInt(shiftBits)) & BigInt(MASK))
  return 0
}

/** Split a `bloodBonus` value into its three fields (bits 20–29, 10–19, 0–9). */
export function decodeBloodBonus(value: number): BloodBonusParts {
  return { first: field(value, 20), second: field(value, 10), third: field(value, 0) }
}

/**
 * Pack three bonuses (thousandths, integers 0–1000) into a `bloodBonus` value.
 * Throws a RangeError for anything else.
 */
export function encodeBloodBonus(parts: BloodBonusParts): number
export function encodeBloodBonus(first: number, second: number, third: number): number
export function encodeBloodBonus(a: BloodBonusParts | number, second?: number, third?: number): number {
  const parts = typeof a === 'number' ? { first: a, second: second ?? 0, third: third ?? 0 } : a
  for (const [name, v] of Object.entries(parts)) {
    if (!Number.isInteger(v) || v < 0 || v > BLOOD_BONUS_BASE) throw new RangeError(`blood bonus ${name} must be an integer in 0–${BLOOD_BONUS_BASE}, got ${v}`)
  }
  return parts.first * SHIFT_FIRST + parts.second * SHIFT_SECOND + parts.third
}

/** The value stored on write: any 10-bit field above 1000 → the default 52459530 (docs/scoring.md#blood-bonus). */
export function normalizeBloodBonus(value: number): number {
  const { first, second, third } = decodeBloodBonus(value)
  if (first > BLOOD_BONUS_BASE || second > BLOOD_BONUS_BASE || third > BLOOD_BONUS_BASE) return DEFAULT_BLOOD_BONUS
  return value
}

/** `0` means "no bonus at all" (no multiplier is applied, not even ×1). */
const hasBloodBonus = (bonus: number): boolean => bonus !== 0

/** The multiplier of the first/second/third blood, as the float32 `field / 1000f + 1.0f`. */
export function bloodFactor(bonus: number, rank: BloodRank): number {
  const parts = decodeBloodBonus(bonus)
  const v = rank === 0 ? parts.first : rank === 1 ? parts.second : parts.third
  return Math.fround(Math.fround(v / BLOOD_BONUS_BASE) + 1)
}

/** Round to the nearest integer, ties to even (.NET `Convert.ToInt32(double)`). */
export function roundHalfToEven(x: number): number {
  const floor = Math.floor(x)
  const diff = x - floor
  if (diff < 0.5) return floor
  if (diff > 0.5) return floor + 1
  return floor % 2 === 0 ? floor : floor + 1
}

/**
 * Points a team gets for one solve: the challenge's current base score, multiplied for the first
 * three solvers by their blood factor and rounded half to even; `bloodRank` null = not a blood.
 */
export function solveScore(baseScore: number, bloodRank: BloodRank | null, bloodBonus: number): number {
  if (bloodRank === null || !hasBloodBonus(bloodBonus)) return baseScore
  return roundHalfToEven(Math.fround(Math.fround(baseScore) * bloodFactor(bloodBonus, bloodRank)))
}

/** A time as milliseconds: Date, epoch milliseconds or a wire/ISO string. */
type TimeLike = Date | number | string

const toMillis = (t: TimeLike): number => (t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t))

export interface Rankable {
  score: number
  lastSubmissionTime: TimeLike
}

/**
 * Scoreboard order (docs/scoring.md#ranking): score descending, then `lastSubmissionTime` ascending. Equal rows compare
 * as 0, so a stable sort keeps their previous order; ranks are consecutive positions.
 */
export function compareRanking(a: Rankable, b: Rankable): number {
  if (a.score !== b.score) return b.score - a.score
  const ta = toMillis(a.lastSubmissionTime)
  const tb = toMillis(b.lastSubmissionTime)
  return ta < tb ? -1 : ta > tb ? 1 : 0
}
