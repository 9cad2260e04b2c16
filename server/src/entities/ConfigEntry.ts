import { defineEntity, p } from '@mikro-orm/core'

/** Runtime settings editable by admins (docs/compatibility.md#configuration-shapes), one row per dotted key, values as text. */
export const ConfigEntrySchema = defineEntity({
  name: 'ConfigEntry',
  tableName: 'configs',
  properties: {
    key: p.string().length(128).primary(),
    value: p.text().nullable(),
  },
})
export class ConfigEntry extends ConfigEntrySchema.class {}
ConfigEntrySchema.setClass(ConfigEntry)
