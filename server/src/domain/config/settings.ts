/**
 * Runtime settings editable by admins (CONTRACT §4.4), stored in the `configs` table as text
 * under dotted keys and cached in process. A change is applied on the next request; other
 * nodes drop their cache through the Redis channel when one is configured.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { ConfigEntry } from '../../entities/ConfigEntry.js'

export interface AccountPolicy {
  allowRegister: boolean
  activeOnRegister: boolean
  useCaptcha: boolean
  emailConfirmationRequired: boolean
  emailDomainList: string
}

export interface GlobalSettings {
  title: string
  slogan: string
  footerInfo: string | null
  beianInfo: string | null
}

export interface GamePolicy {
  autoDestroyOnLimitReached: boolean
}

export interface Settings {
  accountPolicy: AccountPolicy
  globalConfig: GlobalSettings
  gamePolicy: GamePolicy
}

export const DEFAULT_SETTINGS: Settings = {
  accountPolicy: { allowRegister: true, activeOnRegister: true, useCaptcha: false, emailConfirmationRequired: false, emailDomainList: '' },
  globalConfig: { title: 'GZ', slogan: 'Hack for fun not for profit', footerInfo: null, beianInfo: null },
  gamePolicy: { autoDestroyOnLimitReached: false },
}

type Section = keyof Settings

function decode(defaultValue: unknown, text: string | null): unknown {
  if (typeof defaultValue === 'boolean') return text === 'true' || text === 'True'
  return text
}

export class SettingsStore {
  private cached: Settings | null = null

  constructor(private readonly onChange: (settings: Settings) => void = () => {}) {}

  async get(em: EntityManager): Promise<Settings> {
    if (this.cached) return this.cached
    const rows = await em.fork().find(ConfigEntry, {})
    const byKey = new Map(rows.map((r) => [r.key, r.value]))
    const settings = structuredClone(DEFAULT_SETTINGS) as unknown as Record<Section, Record<string, unknown>>
    for (const section of Object.keys(settings) as Section[]) {
      for (const [leaf, def] of Object.entries(settings[section])) {
        const key = `${section}.${leaf}`
        if (byKey.has(key)) settings[section][leaf] = decode(def, byKey.get(key) ?? null)
      }
    }
    this.cached = settings as unknown as Settings
    return this.cached
  }

  /** Persist every non-null leaf of the given sections (a null leaf keeps its value, CONTRACT §3.2.2). */
  async update(em: EntityManager, patch: { [S in Section]?: { [K in keyof Settings[S]]?: Settings[S][K] | null } | null }): Promise<Settings> {
    for (const [section, values] of Object.entries(patch)) {
      if (!values) continue
      for (const [leaf, value] of Object.entries(values)) {
        if (value === null || value === undefined || !(leaf in DEFAULT_SETTINGS[section as Section])) continue
        await em.upsert(ConfigEntry, { key: `${section}.${leaf}`, value: String(value) })
      }
    }
    await em.flush()
    this.invalidate()
    const settings = await this.get(em)
    this.onChange(settings)
    return settings
  }

  invalidate(): void {
    this.cached = null
  }
}
