import { createHash } from 'node:crypto'
import { describe, it, expect } from 'vitest'
import {
  LEET_TABLE,
  TEST_FLAG,
  generateTeamFlag,
  generateTestFlag,
  isAcceptableTemplate,
  leetEntropy,
  leetTransform,
  teamHash,
  teamHashSalt,
} from '@flagwave/shared/flags'

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')
const first = () => 0
const last = () => 0.999999
const GUID = '0f8fad5b-d9cb-469f-a165-70867728950e'
const ctx = {
  teamToken: '1:c2lnbmF0dXJl',
  teamHashSalt: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  challengeId: 42,
  sha256Hex,
  randomUuid: () => GUID,
  random: first,
}
// sha256("1:c2lnbmF0dXJl::0123…cdef::42") = ec5898f17c54 4713cd3a4a62 9002e441…
const HASH = '4713cd3a4a62'

describe('leet table', () => {
  it('matches the contract', () => {
    expect(Object.keys(LEET_TABLE)).toHaveLength(36)
    expect(LEET_TABLE.A).toBe('Aa4')
    expect(LEET_TABLE.B).toBe('Bb68')
    expect(LEET_TABLE.G).toBe('Gg69')
    expect(LEET_TABLE.I).toBe('Ii1l')
    expect(LEET_TABLE.L).toBe('Ll1I')
    expect(LEET_TABLE['6']).toBe('6Gb')
    expect(LEET_TABLE['9']).toBe('9g')
  })
})

describe('leetEntropy', () => {
  it('sums log2 of the alternatives inside {…} and after ]', () => {
    expect(leetEntropy('flag{}')).toBe(0)
    expect(leetEntropy('flag{abc}')).toBeCloseTo(Math.log2(3) + 2 + 1, 12)
    expect(leetEntropy('abc')).toBe(0) // outside any zone
    expect(leetEntropy('flag{a_b-c}')).toBeCloseTo(Math.log2(3) + 2 + 1, 12) // _ and - have no alternatives
    expect(leetEntropy('flag{ab[TEAM_HASH]c}')).toBeCloseTo(Math.log2(3) + 2 + 1, 12) // placeholder not counted
    // "[LEET]" is not counted, but its "]" opens a zone: f l a g { x }
    expect(leetEntropy('[LEET]flag{x}')).toBeCloseTo(Math.log2(3) + 2 + Math.log2(3) + 2 + 1, 12)
    expect(leetEntropy('flag{ABC}')).toBe(leetEntropy('flag{abc}')) // case-insensitive
  })
})

describe('leetTransform', () => {
  it('replaces characters in a zone by one of their alternatives', () => {
    expect(leetTransform('flag{abc}', first)).toBe('flag{ABC}')
    expect(leetTransform('flag{abc}', last)).toBe('flag{48c}')
    expect(leetTransform('flag{ab[TEAM_HASH]cd}', first)).toBe('flag{AB[TEAM_HASH]CD}')
  })
  it('turns every space into _', () => {
    expect(leetTransform('my flag{a b}', first)).toBe('my_flag{A_B}')
  })
  it('produces only characters of the alternatives', () => {
    for (let i = 0; i < 20; i++) {
      const out = leetTransform('flag{hello}')
      expect(out).toMatch(/^flag\{[Hh][Ee3][Ll1I][Ll1I][Oo0]\}$/)
    }
  })
})

describe('isAcceptableTemplate', () => {
  it('accepts placeholders or ≥ 32 bits of leet entropy', () => {
    expect(isAcceptableTemplate('flag{[GUID]}')).toBe(true)
    expect(isAcceptableTemplate('flag{[TEAM_HASH]}')).toBe(true)
    expect(isAcceptableTemplate(`flag{${'b'.repeat(16)}}`)).toBe(true) // 16 × 2 = 32
    expect(isAcceptableTemplate(`flag{${'b'.repeat(15)}}`)).toBe(false) // 30
    expect(isAcceptableTemplate('flag{hello_world}')).toBe(false)
    expect(isAcceptableTemplate('')).toBe(false)
    expect(isAcceptableTemplate(null)).toBe(false)
  })
})

describe('team hash and salt', () => {
  it('uses characters 12–23 of sha256(token::salt::challengeId)', () => {
    expect(sha256Hex(`${ctx.teamToken}::${ctx.teamHashSalt}::42`)).toBe('ec5898f17c544713cd3a4a629002e441fdeecbbbc31befe1ff45cb4c985a359b')
    expect(teamHash(ctx)).toBe(HASH)
  })
  it('derives the salt from the private key', () => {
    expect(teamHashSalt('cHJpdmF0ZQ==', sha256Hex)).toBe('fc2a65aa4497cab88e159411f21477f351678ebfa12c22ee68864349188b55db')
  })
})

describe('generateTeamFlag', () => {
  it('1. no template → flag{guid}', () => {
    expect(generateTeamFlag(null, ctx)).toBe(`flag{${GUID}}`)
    expect(generateTeamFlag('', ctx)).toBe(`flag{${GUID}}`)
  })
  it('2. [GUID] → replaced, nothing else changed', () => {
    expect(generateTeamFlag('flag{[GUID]}', ctx)).toBe(`flag{${GUID}}`)
    expect(generateTeamFlag('[LEET]flag{abc [GUID]}', ctx)).toBe(`[LEET]flag{abc ${GUID}}`)
    expect(generateTeamFlag('flag{[GUID]_[TEAM_HASH]}', ctx)).toBe(`flag{${GUID}_[TEAM_HASH]}`)
  })
  it('3. [TEAM_HASH] → team hash, leet only after a leading [LEET]', () => {
    expect(generateTeamFlag('flag{abc [TEAM_HASH]}', ctx)).toBe(`flag{abc ${HASH}}`)
    expect(generateTeamFlag('[LEET]flag{abc [TEAM_HASH]}', ctx)).toBe(`flag{ABC_${HASH}}`)
    expect(generateTeamFlag('[LEET]flag{abc_[TEAM_HASH]}', { ...ctx, random: last })).toBe(`flag{48c_${HASH}}`)
    expect(generateTeamFlag('flag{[TEAM_HASH]}-[TEAM_HASH]', ctx)).toBe(`flag{${HASH}}-${HASH}`)
  })
  it('4. otherwise → leet of the whole template, [LEET] kept', () => {
    expect(generateTeamFlag('flag{abc}', ctx)).toBe('flag{ABC}')
    expect(generateTeamFlag('[LEET]flag{abc}', ctx)).toBe('[LEET]FLAG{ABC}')
  })
  it('defaults to random GUIDs', () => {
    const { randomUuid: _u, ...noUuid } = ctx
    expect(generateTeamFlag(null, noUuid)).toMatch(/^flag\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/)
  })
})

describe('generateTestFlag', () => {
  it('follows the admin test-container rules', () => {
    expect(generateTestFlag(null)).toBe(TEST_FLAG)
    expect(generateTestFlag('')).toBe('flag{GZCTF_dynamic_flag_test}')
    expect(generateTestFlag('flag{[GUID]}', { randomUuid: () => GUID })).toBe(`flag{${GUID}}`)
    expect(generateTestFlag('[LEET]flag{abc}', { random: first })).toBe('flag{ABC}')
    expect(generateTestFlag('flag{x y}', { random: first })).toBe('flag{X_Y}')
    expect(generateTestFlag('flag{[TEAM_HASH]}', { random: first })).toBe('flag{[TEAM_HASH]}')
  })
})
