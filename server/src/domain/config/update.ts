/**
 * `PUT /api/admin/config` (docs/compatibility.md#group-admin): store every non-null leaf, apply it from the next
 * request on (SettingsStore), push the public part to open clients (the store's change hook,
 * services.ts) and record the change in the audit log.
 */
import type { ConfigEditInput } from '@flagwave/shared/schemas/config'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import type { Settings } from './settings.js'

const CONFIG_UPDATED = '全局设置已更新'

export async function updateConfig(scope: Scope, actor: Actor, input: ConfigEditInput): Promise<Settings> {
  // GZ::CTF 0.18's `containerPolicy` carries `gamePolicy`'s switch and wins; its other members are fixed (validated).
  const autoDestroy = input.containerPolicy?.autoDestroyOnLimitReached ?? input.gamePolicy?.autoDestroyOnLimitReached ?? null
  const { accountPolicy } = input
  // Only v0.17.6's leaves are stored from here: the logo routes own logoHash/faviconHash, the other newer members are neutral (validated).
  const globalConfig = input.globalConfig && {
    title: input.globalConfig.title,
    slogan: input.globalConfig.slogan,
    footerInfo: input.globalConfig.footerInfo,
    beianInfo: input.globalConfig.beianInfo,
  }
  const settings = await scope.services.settings.update(scope.em, { accountPolicy, globalConfig, gamePolicy: { autoDestroyOnLimitReached: autoDestroy } })
  await scope.services.audit.success(actor, CONFIG_UPDATED)
  return settings
}
