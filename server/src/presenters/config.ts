/** Settings → contract shapes (docs/compatibility.md#configuration-shapes). */
import type { ClientConfig, ConfigEditModel, GlobalConfig } from '@flagwave/shared/schemas/config'
import { CONTAINER_LIFETIME_MS, CONTAINER_PROLONG_WINDOW_MS } from '@flagwave/shared/limits'

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

const MINUTE_MS = 60_000

/**
 * GET /api/config: GlobalConfig with the members newer GZ::CTF clients read
 * (docs/compatibility.md#newer-gzctf-versions); a prolong adds a full lifetime, inside the renewal window.
 */
export function presentClientConfig(settings: ShownSettings, portMapping: 'default' | 'proxy'): ClientConfig {
  return {
    ...presentGlobalConfig(settings),
    defaultLifetime: CONTAINER_LIFETIME_MS / MINUTE_MS,
    extensionDuration: CONTAINER_LIFETIME_MS / MINUTE_MS,
    renewalWindow: CONTAINER_PROLONG_WINDOW_MS / MINUTE_MS,
    customTheme: null,
    logoUrl: null,
    portMapping: portMapping === 'proxy' ? 'PlatformProxy' : 'Default',
    apiPublicKey: null,
  }
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
