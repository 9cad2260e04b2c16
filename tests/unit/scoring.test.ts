import { describe, it, expect } from 'vitest'
import {
  bloodFactor,
  challengeScore,
  compareRanking,
  decodeBloodBonus,
  encodeBloodBonus,
  minScore,
  normalizeBloodBonus,
  roundHalfToEven,
  solveScore,
} from '@flagwave/shared/scoring'
import { DEFAULT_BLOOD_BONUS } from '@flagwave/shared/limits'

describe('challengeScore', () => {
  // S = 500, r = 0.25, d = 5: ⌊500 · (0.25 + 0.75 · e^((1 − n)/5))⌋
  it('keeps the original score for 0 or 1 solver', () => {
    expect(challengeScore(500, 0.25, 5, 0)).toBe(500)
    expect(challengeScore(500, 0.25, 5, 1)).toBe(500)
  })
  it('decays with the number of solvers', () => {
    expect(challengeScore(500, 0.25, 5, 2)).toBe(432) // 500 · (0.25 + 0.75 · 0.818730…) = 432.02
    expect(challengeScore(500, 0.25, 5, 3)).toBe(376) // 500 · (0.25 + 0.75 · 0.670320…) = 376.37
    expect(challengeScore(500, 0.25, 5, 10)).toBe(186) // 500 · (0.25 + 0.75 · 0.165298…) = 186.99
  })
  it('approaches the minimum score', () => {
    expect(challengeScore(500, 0.25, 5, 1000)).toBe(125)
    expect(minScore(500, 0.25)).toBe(125)
    expect(minScore(333, 0.3)).toBe(99)
  })
  it('handles rate 1 (static score) and difficulty 0 like .NET doubles', () => {
    expect(challengeScore(300, 1, 5, 50)).toBe(300)
    expect(challengeScore(500, 0.25, 0, 2)).toBe(125) // e^(−∞) = 0
  })
})

describe('blood bonus', () => {
  it('decodes and encodes the default', () => {
    expect(DEFAULT_BLOOD_BONUS).toBe(52459530)
    expect(decodeBloodBonus(52459530)).toEqual({ first: 50, second: 30, third: 10 })
    expect(encodeBloodBonus({ first: 50, second: 30, third: 10 })).toBe(52459530)
    expect(encodeBloodBonus(50, 30, 10)).toBe(52459530)
    expect(encodeBloodBonus(1000, 1000, 1000)).toBe(1000 * 2 ** 20 + 1000 * 2 ** 10 + 1000)
    expect(decodeBloodBonus(0)).toEqual({ first: 0, second: 0, third: 0 })
  })
  it('refuses fields outside 0–1000 when encoding', () => {
    expect(() => encodeBloodBonus(1001, 0, 0)).toThrow(RangeError)
    expect(() => encodeBloodBonus(-1, 0, 0)).toThrow(RangeError)
    expect(() => encodeBloodBonus(1.5, 0, 0)).toThrow(RangeError)
  })
  it('normalizes values with a field above 1000 to the default', () => {
    expect(normalizeBloodBonus(0)).toBe(0)
    expect(normalizeBloodBonus(52459530)).toBe(52459530)
    expect(normalizeBloodBonus(1000 * 2 ** 20)).toBe(1000 * 2 ** 20)
    expect(normalizeBloodBonus(1001 * 2 ** 20)).toBe(52459530)
    expect(normalizeBloodBonus(1001 * 2 ** 10)).toBe(52459530)
    expect(normalizeBloodBonus(1023)).toBe(52459530)
    // bits above 29 are outside every field and kept as given
    expect(normalizeBloodBonus(2 ** 40 + 10)).toBe(2 ** 40 + 10)
  })
  it('computes float32 factors', () => {
    expect(bloodFactor(52459530, 0)).toBe(Math.fround(1.05))
    expect(bloodFactor(52459530, 1)).toBe(Math.fround(1.03))
    expect(bloodFactor(52459530, 2)).toBe(Math.fround(1.01))
    expect(bloodFactor(encodeBloodBonus(500, 0, 0), 0)).toBe(1.5)
    expect(bloodFactor(encodeBloodBonus(500, 0, 0), 1)).toBe(1)
  })
})

describe('solveScore', () => {
  it('applies the default bonus to the first three solvers', () => {
    expect(solveScore(500, 0, DEFAULT_BLOOD_BONUS)).toBe(525)
    expect(solveScore(500, 1, DEFAULT_BLOOD_BONUS)).toBe(515)
    expect(solveScore(500, 2, DEFAULT_BLOOD_BONUS)).toBe(505)
    expect(solveScore(500, null, DEFAULT_BLOOD_BONUS)).toBe(500)
    expect(solveScore(432, 0, DEFAULT_BLOOD_BONUS)).toBe(454) // 453.6
  })
  it('applies no multiplier when the bonus is 0', () => {
    expect(solveScore(500, 0, 0)).toBe(500)
    expect(solveScore(499, 2, 0)).toBe(499)
  })
  it('rounds half to even', () => {
    const half = encodeBloodBonus(500, 0, 0) // ×1.5 exactly
    expect(solveScore(3, 0, half)).toBe(4) // 4.5
    expect(solveScore(5, 0, half)).toBe(8) // 7.5
    expect(solveScore(7, 0, half)).toBe(10) // 10.5
    expect(solveScore(150, 2, DEFAULT_BLOOD_BONUS)).toBe(152) // 151.5
    expect(solveScore(250, 0, DEFAULT_BLOOD_BONUS)).toBe(262) // 262.5
    expect(roundHalfToEven(2.5)).toBe(2)
    expect(roundHalfToEven(3.5)).toBe(4)
    expect(roundHalfToEven(-2.5)).toBe(-2)
    expect(roundHalfToEven(2.4999)).toBe(2)
  })
  it('multiplies in single precision like the reference', () => {
    // 500 × (0.001f + 1f) = 500.50003f → 501 (a double product would give 500.49999… → 500)
    expect(solveScore(500, 0, encodeBloodBonus(1, 0, 0))).toBe(501)
    // 125 × 1.004f = 125.49999f → 125
    expect(solveScore(125, 0, encodeBloodBonus(4, 0, 0))).toBe(125)
  })
})

describe('compareRanking', () => {
  it('orders by score descending, then last submission ascending', () => {
    const rows = [
      { id: 'a', score: 100, lastSubmissionTime: '2023-10-01T00:00:05+00:00' },
      { id: 'b', score: 300, lastSubmissionTime: '2023-10-01T00:00:09+00:00' },
      { id: 'c', score: 100, lastSubmissionTime: '2023-10-01T00:00:01.5+00:00' },
      { id: 'd', score: 300, lastSubmissionTime: '2023-10-01T00:00:02+00:00' },
      { id: 'e', score: 100, lastSubmissionTime: '2023-10-01T00:00:01.5+00:00' },
    ]
    expect([...rows].sort(compareRanking).map((r) => r.id)).toEqual(['d', 'b', 'c', 'e', 'a'])
  })
  it('accepts dates and epoch numbers and returns 0 for full ties', () => {
    const t = new Date('2023-10-01T00:00:00Z')
    expect(compareRanking({ score: 1, lastSubmissionTime: t }, { score: 1, lastSubmissionTime: t.getTime() })).toBe(0)
    expect(compareRanking({ score: 1, lastSubmissionTime: t }, { score: 1, lastSubmissionTime: t.getTime() + 1 })).toBeLessThan(0)
    expect(compareRanking({ score: 2, lastSubmissionTime: t.getTime() + 1 }, { score: 1, lastSubmissionTime: t })).toBeLessThan(0)
  })
})
