/**
 * Dynamic flags and flag templates (docs/compatibility.md#dynamic-flags), as GZ::CTF v0.17.6 builds them.
 * Only Web-standard APIs are used (the client runs `leetEntropy`/`isAcceptableTemplate` live);
 * hashing is injected so this file needs no Node import.
 */

/** Leet alternatives per upper-case character (case-insensitive lookup). */
export const LEET_TABLE: Readonly<Record<string, string>> = Object.freeze({
  A: 'Aa4',
  B: 'Bb68',
  C: 'Cc',
  D: 'Dd',
  E: 'Ee3',
  F: 'Ff1',
  G: 'Gg69',
  H: 'Hh',
  I: 'Ii1l',
  J: 'Jj',
  K: 'Kk',
  L: 'Ll1I',
  M: 'Mm',
  N: 'Nn',
  O: 'Oo0',
  P: 'Pp',
  Q: 'Qq9',
  R: 'Rr',
  S: 'Ss5',
  T: 'Tt7',
  U: 'Uu',
  V: 'Vv',
  W: 'Ww',
  X: 'Xx',
  Y: 'Yy',
  Z: 'Zz2',
  '0': '0oO',
  '1': '1lI',
  '2': '2zZ',
  '3': '3eE',
  '4': '4aA',
  '5': '5Ss',
  '6': '6Gb',
  '7': '7T',
  '8': '8bB',
  '9': '9g',
})

export const GUID_PLACEHOLDER = '[GUID]'
export const TEAM_HASH_PLACEHOLDER = '[TEAM_HASH]'
export const LEET_PREFIX = '[LEET]'
/** Minimum leet entropy (bits) of a template without placeholder (docs/compatibility.md#dynamic-flags). */
export const MIN_TEMPLATE_ENTROPY = 32
/** The admin test-container flag when the challenge has no template. */
export const TEST_FLAG = 'flag{GZCTF_dynamic_flag_test}'
/** Message of `PUT /api/edit/games/{id}/challenges/{cId}` for a weak template (docs/compatibility.md#group-edit). */
export const WEAK_TEMPLATE_MESSAGE = 'flag 复杂度不足，请考虑添加队伍哈希或增加长度'

/** Upper-case one UTF-16 unit like .NET `char.ToUpperInvariant` (a unit that would expand stays). */
function upperUnit(c: string): string {
  const u = c.toUpperCase()
  return u.length === 1 ? u : c
}

function alternatives(c: string): string | undefined {
  const key = upperUnit(c)
  return Object.prototype.hasOwnProperty.call(LEET_TABLE, key) ? LEET_TABLE[key] : undefined
}

/**
 * Walk a template the way GZ::CTF does: `{` or `]` opens a leet zone, `}` or `[` (inside a zone)
 * closes it; the delimiters themselves are never transformed. Iterates UTF-16 units like C#.
 */
function walk(template: string, onChar: (c: string, leet: string | undefined) => void): void {
  let doLeet = false
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!
    if (c === '{' || c === ']') doLeet = true
    else if (doLeet && (c === '}' || c === '[')) doLeet = false
    else if (doLeet) {
      const table = alternatives(c)
      if (table !== undefined) {
        onChar(c, table)
        continue
      }
    }
    onChar(c, undefined)
  }
}

/** Sum of log2(number of alternatives) over the characters the leet transformation would change. */
export function leetEntropy(template: string): number {
  let entropy = 0
  walk(template, (_c, table) => {
    if (table !== undefined) entropy += Math.log(table.length) / Math.log(2)
  })
  return entropy
}

/** A uniform number in [0, 1) from the Web Crypto API. */
function secureRandom(): number {
  const buf = new Uint32Array(1)
  globalThis.crypto.getRandomValues(buf)
  return buf[0]! / 2 ** 32
}

/**
 * The leet transformation: each transformable character becomes one of its alternatives chosen
 * by `random` (a function like `Math.random`, default: Web Crypto), and every space becomes `_`.
 */
export function leetTransform(template: string, random: () => number = secureRandom): string {
  let out = ''
  walk(template, (c, table) => {
    if (table !== undefined) {
      const i = Math.min(table.length - 1, Math.max(0, Math.floor(random() * table.length)))
      out += table[i]
    } else out += c === ' ' ? '_' : c
  })
  return out
}

const isBlank = (s: string | null | undefined): boolean => s === null || s === undefined || /^\s*$/.test(s)

/**
 * Whether a `DynamicContainer` template is strong enough: it contains `[GUID]` or `[TEAM_HASH]`,
 * or its leet entropy is at least 32 bits. A blank template yields false like the reference's
 * check; the endpoint only applies it to non-blank templates (a blank one clears the template).
 */
export function isAcceptableTemplate(template: string | null | undefined): boolean {
  if (isBlank(template)) return false
  const t = template as string
  return t.includes(GUID_PLACEHOLDER) || t.includes(TEAM_HASH_PLACEHOLDER) || leetEntropy(t) >= MIN_TEMPLATE_ENTROPY
}

/**
 * The length of the longest flag `generateTeamFlag` or `generateTestFlag` can make of `template`:
 * each `[GUID]` becomes 36 characters, each `[TEAM_HASH]` 12, and the leet transformation keeps
 * the length. A template is refused when this exceeds what the flag columns hold.
 */
export function longestGeneratedFlag(template: string | null | undefined): number {
  if (template === null || template === undefined || template === '') return `flag{${'0'.repeat(36)}}`.length
  const count = (placeholder: string) => template.split(placeholder).length - 1
  if (template.includes(GUID_PLACEHOLDER)) return template.length + count(GUID_PLACEHOLDER) * (36 - GUID_PLACEHOLDER.length)
  return template.length + count(TEAM_HASH_PLACEHOLDER) * (12 - TEAM_HASH_PLACEHOLDER.length)
}

/** A new GUID in lowercase 8-4-4-4-12 form. */
const randomGuid = (): string => globalThis.crypto.randomUUID().toLowerCase()

export interface TeamFlagContext {
  /** The participation's team token (`GameDetailModel.teamToken`, docs/compatibility.md#team-token). */
  teamToken: string
  /** The game's team hash salt (`GET /api/edit/games/{id}/teamhashsalt`), see `teamHashSalt`. */
  teamHashSalt: string
  challengeId: number
  /** Lowercase hex SHA-256 of the UTF-8 text. */
  sha256Hex: (text: string) => string
  /** A new lowercase 8-4-4-4-12 GUID; default Web Crypto `randomUUID`. */
  randomUuid?: () => string
  /** Random source of the leet transformation (like `Math.random`); default Web Crypto. */
  random?: () => number
}

/** The team hash: characters 12–23 of sha256(`{teamToken}::{teamHashSalt}::{challengeId}`). */
export function teamHash(ctx: Pick<TeamFlagContext, 'teamToken' | 'teamHashSalt' | 'challengeId' | 'sha256Hex'>): string {
  return ctx.sha256Hex(`${ctx.teamToken}::${ctx.teamHashSalt}::${ctx.challengeId}`).slice(12, 24)
}

/** The game's team hash salt: sha256(`GZCTF@{privateKeyBase64}@PK`) (docs/compatibility.md#dynamic-flags, #group-edit). */
export function teamHashSalt(privateKeyBase64: string, sha256Hex: (text: string) => string): string {
  return sha256Hex(`GZCTF@${privateKeyBase64}@PK`)
}

/**
 * The flag of a team's `DynamicContainer` instance (docs/compatibility.md#dynamic-flags, rules tried in order):
 * 1. no template → `flag{<guid>}`;
 * 2. `[GUID]` → every `[GUID]` replaced by one new GUID, nothing else changed;
 * 3. `[TEAM_HASH]` → a leading `[LEET]` is removed and the rest leet-transformed (otherwise the
 *    template is kept as is), then every `[TEAM_HASH]` becomes the team hash;
 * 4. otherwise → leet transformation of the whole template (a leading `[LEET]` is kept).
 */
export function generateTeamFlag(template: string | null | undefined, ctx: TeamFlagContext): string {
  const uuid = ctx.randomUuid ?? randomGuid
  if (template === null || template === undefined || template === '') return `flag{${uuid()}}`
  if (template.includes(GUID_PLACEHOLDER)) return template.replaceAll(GUID_PLACEHOLDER, uuid())
  if (template.includes(TEAM_HASH_PLACEHOLDER)) {
    const flag = template.startsWith(LEET_PREFIX) ? leetTransform(template.slice(LEET_PREFIX.length), ctx.random) : template
    return flag.replaceAll(TEAM_HASH_PLACEHOLDER, teamHash(ctx))
  }
  return leetTransform(template, ctx.random)
}

/**
 * The flag of an admin test container: no template → `flag{GZCTF_dynamic_flag_test}`; `[GUID]` →
 * replaced by a new GUID; otherwise the leet transformation of the template without a leading `[LEET]`.
 */
export function generateTestFlag(
  template: string | null | undefined,
  opts: { randomUuid?: () => string; random?: () => number } = {},
): string {
  if (template === null || template === undefined || template === '') return TEST_FLAG
  if (template.includes(GUID_PLACEHOLDER)) return template.replaceAll(GUID_PLACEHOLDER, (opts.randomUuid ?? randomGuid)())
  return leetTransform(template.startsWith(LEET_PREFIX) ? template.slice(LEET_PREFIX.length) : template, opts.random)
}
