/** Settings → contract shapes (docs/compatibility.md#configuration-shapes). */
import { FIXED_CONTAINER_POLICY, type ClientConfig, type ConfigEditModel, type GlobalConfig } from '@flagwave/shared/schemas/config'

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

/**
 * GET /api/config: GlobalConfig with the members newer GZ::CTF clients read
 * (docs/compatibility.md#newer-gzctf-versions); a prolong adds a full lifetime, inside the renewal window.
 */
export function presentClientConfig(settings: ShownSettings, portMapping: 'default' | 'proxy'): ClientConfig {
  return {
    ...presentGlobalConfig(settings),
    defaultLifetime: FIXED_CONTAINER_POLICY.defaultLifetime,
    extensionDuration: FIXED_CONTAINER_POLICY.extensionDuration,
    renewalWindow: FIXED_CONTAINER_POLICY.renewalWindow,
    customTheme: null,
    logoUrl: settings.globalConfig.logoHash ? `/assets/${settings.globalConfig.logoHash}/logo` : null,
    portMapping: portMapping === 'proxy' ? 'PlatformProxy' : 'Default',
    apiPublicKey: null,
  }
}

/** GET /api/admin/config: every section, never null; GZ::CTF 1.x's members beside v0.17.6's (docs/compatibility.md#newer-gzctf-versions). */
export function presentConfigEdit(settings: ShownSettings): ConfigEditModel {
  const { allowRegister, activeOnRegister, useCaptcha, emailConfirmationRequired, emailDomainList, twoFactorPolicy } = settings.accountPolicy
  const { autoDestroyOnLimitReached } = settings.gamePolicy
  return {
    accountPolicy: { allowRegister, activeOnRegister, useCaptcha, emailConfirmationRequired, emailDomainList, twoFactorPolicy },
    globalConfig: { ...presentGlobalConfig(settings), description: null, customTheme: null, apiEncryption: false },
    gamePolicy: { autoDestroyOnLimitReached },
    containerPolicy: { autoDestroyOnLimitReached, ...FIXED_CONTAINER_POLICY },
  }
}
