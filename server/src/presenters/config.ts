/** Settings → contract shapes (docs/compatibility.md#configuration-shapes). */
import type { ConfigEditModel, GlobalConfig } from '@flagwave/shared/schemas/config'

/** The stored settings, as far as the wire shows them (domain/config/settings.ts keeps them). */
interface ShownSettings {
  accountPolicy: NonNullable<ConfigEditModel['accountPolicy']>
  globalConfig: Omit<GlobalConfig, 'logoHash' | 'faviconHash'> & { logoHash: string; faviconHash: string }
  gamePolicy: NonNullable<ConfigEditModel['gamePolicy']>
}

/**
 * GET /api/config and the `ReceivedConfigUpdate` push: the contract's GlobalConfig plus beianInfo
 * (docs/compatibility.md#defaults-and-build-information) and newer GZ::CTF's logoHash/faviconHash (null = none).
 */
export function presentGlobalConfig(settings: ShownSettings): GlobalConfig {
  const { title, slogan, footerInfo, beianInfo, logoHash, faviconHash } = settings.globalConfig
  return { title, slogan, footerInfo, beianInfo, logoHash: logoHash || null, faviconHash: faviconHash || null }
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
