/**
 * `PUT /api/admin/config` (CONTRACT §3.2.2): store every non-null leaf, apply it from the next
 * request on (SettingsStore), push the public part to open clients (the store's change hook,
 * services.ts) and record the change in the audit log.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { ConfigEditInput } from '@flagwave/shared/schemas/config'
import type { Services } from '../../services.js'
import type { Settings } from './settings.js'

export const CONFIG_UPDATED = '全局设置已更新'

export interface Actor {
  userName: string
  ip: string
}

export async function updateConfig(em: EntityManager, services: Services, input: ConfigEditInput, actor: Actor): Promise<Settings> {
  const settings = await services.settings.update(em, input)
  await services.audit.write({ message: CONFIG_UPDATED, userName: actor.userName, ip: actor.ip, status: 'Success' })
  return settings
}
