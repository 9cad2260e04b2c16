/**
 * Group `admin`: runtime settings, the audit log and container instances (docs/compatibility.md#group-admin). Every call requires the Admin role.
 */
import { z } from 'zod'
import { ConfigEditInput, ConfigEditModel } from '@flagwave/shared/schemas/config'
import { ContainerInstanceModel, LogMessageModel } from '@flagwave/shared/schemas/admin'
import { arrayResponseOf } from '@flagwave/shared/schemas/common'
import type { LogLevel } from '@flagwave/shared/enums'
import { http } from './http'

/** The level filter the reference frontend offers (docs/compatibility.md#group-admin); `All` disables it. */
export type LogLevelFilter = Exclude<LogLevel, 'Fatal'> | 'All'
export const LOG_LEVEL_FILTERS: readonly LogLevelFilter[] = ['All', 'Information', 'Warning', 'Error']

const InstancePage = arrayResponseOf(ContainerInstanceModel)

export const adminConfigApi = {
  /** All three sections, freshly reloaded on the server. */
  config: () => http.get('/api/admin/config', { schema: ConfigEditModel }),
  /** Every non-null leaf is stored and applied at once; `null` keeps (send `""` to clear). 200, empty body. */
  updateConfig: (body: z.input<typeof ConfigEditInput>) => http.put('/api/admin/config', { json: body }),
  /** Multipart part `file`: the platform logo, the favicon is made from it; 200 JSON string (the logo's URL). */
  uploadLogo: (file: File) => {
    const form = new FormData()
    form.append('file', file, file.name)
    return http.post('/api/admin/config/logo', { form, schema: z.string() })
  },
  /** Back to the built-in logo and favicon. */
  removeLogo: () => http.delete('/api/admin/config/logo'),
  /** Newest first; `level` compared exactly, `All` = every level. */
  logs: (level: LogLevelFilter, count: number, skip: number) => http.get('/api/admin/logs', { query: { level, count, skip }, schema: z.array(LogMessageModel) }),
  /** Every team container, oldest first; `total` = `length`. */
  instances: () => http.get('/api/admin/instances', { schema: InstancePage }),
  /** `id` is the container's `containerGuid`. 200, empty body; no game event. */
  destroyInstance: (id: string) => http.delete(`/api/admin/instances/${encodeURIComponent(id)}`),
}
