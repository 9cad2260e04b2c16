/**
 * Runtime settings editable by admins (docs/compatibility.md#configuration-shapes), stored in the `configs` table as text
 * under dotted keys (`accountPolicy.allowRegister`) and cached in process. A change is applied
 * on the next request; other nodes drop their cache through the Redis channel when one is
 * configured (services.ts), and a cached copy is never older than `maxAgeMs` in any case.
 *
 * Robustness:
 * - A stored value that does not fit its leaf (`"yes"` for a bool, a NULL title) never fails a
 *   read: the leaf falls back to its default and a warning is logged.
 * - Updates are serialised: in process by a queue, across nodes by a PostgreSQL advisory lock
 *   held by the update's transaction. An update writes all its leaves in one transaction and
 *   reads the complete settings back under the same lock, so the snapshot it caches and pushes
 *   is exactly the committed state.
 * - Every invalidation bumps a generation; a load that started before it is handed to the
 *   callers that were waiting for it but never cached, so a stale read cannot outlive a change.
 */
import { DEFAULT_ACCOUNT_POLICY, DEFAULT_GAME_POLICY, DEFAULT_GLOBAL_CONFIG } from '@flagwave/shared/schemas/config'
import type { EntityManager } from '@mikro-orm/postgresql'
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '@flagwave/shared/schemas/twoFactor'
import pino, { type Logger } from 'pino'
import { ConfigEntry } from '../../entities/ConfigEntry.js'

export interface AccountPolicy {
  allowRegister: boolean
  activeOnRegister: boolean
  useCaptcha: boolean
  emailConfirmationRequired: boolean
  emailDomainList: string
  twoFactorPolicy: TwoFactorPolicy
}

interface GlobalSettings {
  title: string
  slogan: string
  footerInfo: string | null
  beianInfo: string | null
  /** The organiser's logo and its favicon (blob hashes); '' = none (a null leaf means "keep" in a patch). */
  logoHash: string
  faviconHash: string
}

interface GamePolicy {
  autoDestroyOnLimitReached: boolean
}

export interface Settings {
  accountPolicy: AccountPolicy
  globalConfig: GlobalSettings
  gamePolicy: GamePolicy
}

export const DEFAULT_SETTINGS: Settings = deepFreeze({
  accountPolicy: { ...DEFAULT_ACCOUNT_POLICY },
  globalConfig: { ...DEFAULT_GLOBAL_CONFIG, beianInfo: DEFAULT_GLOBAL_CONFIG.beianInfo ?? null, logoHash: '', faviconHash: '' },
  gamePolicy: { ...DEFAULT_GAME_POLICY },
})

type Section = keyof Settings

/** A partial update: a null/absent section or leaf keeps the stored value (docs/compatibility.md#group-admin). */
export type SettingsPatch = { [S in Section]?: { [K in keyof Settings[S]]?: Settings[S][K] | null } | null }

/** A leaf's type; a list of strings is an enum: only those values are read or stored. */
type LeafKind = 'bool' | 'string' | 'nullableString' | readonly string[]

/** The type of every leaf; the stored text is checked against it on read and on write. */
const LEAVES: { [S in Section]: Record<keyof Settings[S], LeafKind> } = {
  accountPolicy: {
    allowRegister: 'bool',
    activeOnRegister: 'bool',
    useCaptcha: 'bool',
    emailConfirmationRequired: 'bool',
    emailDomainList: 'string',
    twoFactorPolicy: TWO_FACTOR_POLICIES,
  },
  globalConfig: { title: 'string', slogan: 'string', footerInfo: 'nullableString', beianInfo: 'nullableString', logoHash: 'string', faviconHash: 'string' },
  gamePolicy: { autoDestroyOnLimitReached: 'bool' },
}

const SECTIONS = Object.keys(LEAVES) as Section[]
/** Serialises updates across nodes (pg_advisory_xact_lock(hashtext(key))). */
const UPDATE_LOCK = 'flagwave:settings'

/**
 * Write leaves inside the caller's transaction, under the update lock, and return the stored
 * values of `keys` as they were (for writes that must move file references with the settings,
 * domain/config/logo.ts). The caller refreshes the store after the commit (`update(em, {})`).
 */
export async function writeSettingsIn(tx: EntityManager, patch: SettingsPatch, keys: string[]): Promise<Map<string, string | null>> {
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [UPDATE_LOCK])
  const found = keys.length ? await tx.find(ConfigEntry, { key: { $in: keys } }) : []
  // Copied before the upsert, which updates the managed rows in place.
  const before = new Map(found.map((row) => [row.key, row.value ?? null]))
  const rows = patchRows(patch)
  if (rows.length) await tx.upsertMany(ConfigEntry, rows)
  return before
}

/** Thrown by `update` for a leaf of the wrong type; routes validate first, so this is a programming error. */
class SettingsTypeError extends Error {}

function leafKind(section: string, leaf: string): LeafKind | undefined {
  if (!Object.hasOwn(LEAVES, section)) return undefined
  const leaves = LEAVES[section as Section] as Record<string, LeafKind>
  return Object.hasOwn(leaves, leaf) ? leaves[leaf] : undefined
}

/** Stored text → value, or `undefined` when the text does not fit the leaf. */
function decode(kind: LeafKind, text: string | null): unknown {
  if (typeof kind !== 'string') return text !== null && kind.includes(text) ? text : undefined
  switch (kind) {
    case 'bool': {
      // We write `true`/`false`; GZ::CTF databases hold .NET's `True`/`False`.
      const t = text?.trim().toLowerCase()
      return t === 'true' ? true : t === 'false' ? false : undefined
    }
    case 'string':
      return typeof text === 'string' ? text : undefined
    case 'nullableString':
      return text
  }
}

/** Value → stored text, or `undefined` when the value does not fit the leaf. */
function encode(kind: LeafKind, value: unknown): string | undefined {
  if (kind === 'bool') return typeof value === 'boolean' ? String(value) : undefined
  if (typeof kind !== 'string') return typeof value === 'string' && kind.includes(value) ? value : undefined
  return typeof value === 'string' ? value : undefined
}

/** Build the complete settings from stored rows: unknown keys are ignored, bad values fall back. */
export function settingsFromRows(rows: Iterable<{ key: string; value?: string | null }>, log?: Pick<Logger, 'warn'>): Settings {
  const byKey = new Map<string, string | null>()
  for (const row of rows) byKey.set(row.key, row.value ?? null)
  const out = {} as Record<Section, Record<string, unknown>>
  for (const section of SECTIONS) {
    const defaults = DEFAULT_SETTINGS[section] as unknown as Record<string, unknown>
    const values: Record<string, unknown> = {}
    for (const [leaf, kind] of Object.entries(LEAVES[section] as Record<string, LeafKind>)) {
      const key = `${section}.${leaf}`
      values[leaf] = defaults[leaf]
      if (!byKey.has(key)) continue
      const stored = byKey.get(key) ?? null
      const decoded = decode(kind, stored)
      if (decoded === undefined) {
        log?.warn({ key, value: stored, fallback: defaults[leaf] }, 'malformed setting in the configs table; using the default')
      } else {
        values[leaf] = decoded
      }
    }
    out[section] = values
  }
  return deepFreeze(out as unknown as Settings)
}

export interface SettingsStoreOptions {
  /** Where warnings about malformed stored values go. */
  log?: Logger
  /** Upper bound on the age of the cached copy, a safety net for a missed cross-node invalidation. */
  maxAgeMs?: number
}

let fallbackLogger: Logger | null = null
function defaultLogger(): Logger {
  fallbackLogger ??= pino({ level: process.env.LOG_LEVEL || 'info', base: { app: 'flagwave', module: 'settings' } })
  return fallbackLogger
}

export class SettingsStore {
  private cached: { settings: Settings; at: number } | null = null
  /** The last settings read successfully, served when a reload fails. */
  private lastGood: Settings | null = null
  /** Bumped by every invalidation; a load only caches its result while the generation is unchanged. */
  private generation = 0
  private loading: { generation: number; promise: Promise<Settings> } | null = null
  /** In-process queue of updates (the advisory lock covers other nodes). */
  private updates: Promise<unknown> = Promise.resolve()
  private readonly log: Logger
  private readonly maxAgeMs: number

  constructor(
    private readonly onChange: (settings: Settings) => void = () => {},
    options: SettingsStoreOptions = {},
  ) {
    this.log = options.log ?? defaultLogger()
    this.maxAgeMs = options.maxAgeMs ?? 60_000
  }

  /** The current settings; `fresh` reads the database even when a cached copy exists. */
  async get(em: EntityManager, options: { fresh?: boolean } = {}): Promise<Settings> {
    if (options.fresh) this.invalidate()
    const cached = this.cached
    if (cached && Date.now() - cached.at < this.maxAgeMs) return cached.settings
    return this.load(em)
  }

  /** The cached settings while they are fresh, else null (a synchronous caller then takes the slow path). */
  peek(): Settings | null {
    const cached = this.cached
    return cached && Date.now() - cached.at < this.maxAgeMs ? cached.settings : null
  }

  private load(em: EntityManager): Promise<Settings> {
    const generation = this.generation
    if (this.loading?.generation === generation) return this.loading.promise
    const loading: { generation: number; promise: Promise<Settings> } = { generation, promise: Promise.resolve(DEFAULT_SETTINGS) }
    this.loading = loading
    loading.promise = (async () => {
      try {
        const rows = await em.fork().find(ConfigEntry, {})
        const settings = settingsFromRows(rows, this.log)
        if (this.generation === generation) {
          this.cached = { settings, at: Date.now() }
          this.lastGood = settings
        }
        return settings
      } catch (err) {
        if (!this.lastGood) throw err
        this.log.warn({ err }, 'reading the settings failed; serving the last known settings')
        return this.lastGood
      } finally {
        if (this.loading === loading) this.loading = null
      }
    })()
    return loading.promise
  }

  /**
   * Persist every non-null leaf of the given sections (a null leaf keeps its value, docs/compatibility.md#group-admin) in one transaction, then cache and announce the committed settings.
   */
  async update(em: EntityManager, patch: SettingsPatch): Promise<Settings> {
    const rows = patchRows(patch)
    const run = this.updates.then(() => this.apply(em, rows))
    this.updates = run.catch(() => undefined)
    return run
  }

  private async apply(em: EntityManager, rows: { key: string; value: string }[]): Promise<Settings> {
    const settings = await em.fork().transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [UPDATE_LOCK])
      if (rows.length) await tx.upsertMany(ConfigEntry, rows)
      const stored = await tx.execute<{ key: string; value: string | null }[]>('select key, value from configs')
      return settingsFromRows(stored, this.log)
    })
    this.invalidate()
    this.cached = { settings, at: Date.now() }
    this.lastGood = settings
    try {
      this.onChange(settings)
    } catch (err) {
      this.log.error({ err }, 'settings change hook failed')
    }
    return settings
  }

  invalidate(): void {
    this.generation++
    this.cached = null
  }
}

/** The rows an update writes; throws `SettingsTypeError` for a leaf of the wrong type. */
function patchRows(patch: SettingsPatch): { key: string; value: string }[] {
  const rows: { key: string; value: string }[] = []
  for (const [section, values] of Object.entries(patch)) {
    if (values === null || values === undefined || typeof values !== 'object') continue
    for (const [leaf, value] of Object.entries(values)) {
      const kind = leafKind(section, leaf)
      if (kind === undefined || value === null || value === undefined) continue
      const text = encode(kind, value)
      if (text === undefined) throw new SettingsTypeError(`setting ${section}.${leaf} expects a ${kind === 'bool' ? 'boolean' : 'string'}`)
      rows.push({ key: `${section}.${leaf}`, value: text })
    }
  }
  return rows
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
