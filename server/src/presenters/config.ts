/** Settings → contract shapes (CONTRACT §4.4). */
import type { ConfigEditModel, GlobalConfig } from '@flagwave/shared/schemas/config'
import type { Settings } from '../domain/config/settings.js'

/** GET /api/config and the `ReceivedConfigUpdate` push: the contract's GlobalConfig plus SPEC §3's beianInfo. */
export function presentGlobalConfig(settings: Settings): GlobalConfig {
  const { title, slogan, footerInfo, beianInfo } = settings.globalConfig
  return { title, slogan, footerInfo, beianInfo }
}

/** GET /api/admin/config: all three sections, never null. */
export function presentConfigEdit(settings: Settings): ConfigEditModel {
  const { allowRegister, activeOnRegister, useCaptcha, emailConfirmationRequired, emailDomainList } = settings.accountPolicy
  return {
    accountPolicy: { allowRegister, activeOnRegister, useCaptcha, emailConfirmationRequired, emailDomainList },
    globalConfig: presentGlobalConfig(settings),
    gamePolicy: { autoDestroyOnLimitReached: settings.gamePolicy.autoDestroyOnLimitReached },
  }
}
