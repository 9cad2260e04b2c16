/** Settings → contract shapes (docs/compatibility.md#configuration-shapes). */
import type { ConfigEditModel, GlobalConfig } from '@flagwave/shared/schemas/config'

/** The stored settings, as far as the wire shows them (domain/config/settings.ts keeps them). */
interface ShownSettings {
  accountPolicy: NonNullable<ConfigEditModel['accountPolicy']>
  globalConfig: GlobalConfig
  gamePolicy: NonNullable<ConfigEditModel['gamePolicy']>
}

/** GET /api/config and the `ReceivedConfigUpdate` push: the contract's GlobalConfig plus beianInfo (docs/compatibility.md#defaults-and-build-information). */
export function presentGlobalConfig(settings: ShownSettings): GlobalConfig {
  const { title, slogan, footerInfo, beianInfo } = settings.globalConfig
  return { title, slogan, footerInfo, beianInfo }
}

/** GET /api/admin/config: all three sections, never null. */
export function presentConfigEdit(settings: ShownSettings): ConfigEditModel {
  const { allowRegister, activeOnRegister, useCaptcha, emailConfirmationRequired, emailDomainList, twoFactorPolicy } = settings.accountPolicy
  return {
    accountPolicy: { allowRegister, activeOnRegister, useCaptcha, emailConfirmationRequired, emailDomainList, twoFactorPolicy },
    globalConfig: presentGlobalConfig(settings),
    gamePolicy: { autoDestroyOnLimitReached: settings.gamePolicy.autoDestroyOnLimitReached },
  }
}
