import type { GlobalConfig } from '@flagwave/shared/schemas/config'
import type { Settings } from '../domain/config/settings.js'

/** GET /api/config: the contract's GlobalConfig plus SPEC §3's beianInfo. */
export function presentGlobalConfig(settings: Settings): GlobalConfig {
  const { title, slogan, footerInfo, beianInfo } = settings.globalConfig
  return { title, slogan, footerInfo, beianInfo }
}
