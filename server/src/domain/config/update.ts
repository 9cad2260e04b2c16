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
  const settings = await scope.services.settings.update(scope.em, input)
  await scope.services.audit.success(actor, CONFIG_UPDATED)
  return settings
}
