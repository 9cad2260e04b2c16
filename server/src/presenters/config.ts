/** Settings → contract shapes (docs/compatibility.md#configuration-shapes). */
import type { ConfigEditModel, GlobalConfig } from '@flagwave/shared/schemas/config'
import type { Settings } from '../domain/config/settings.js'

/** GET /api/config and the `ReceivedConfigUpdate` push: the contract's GlobalConfig plus beianInfo (docs/compatibility.md#defaults-and-build-information). */
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
