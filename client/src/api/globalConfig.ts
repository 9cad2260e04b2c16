/**
 * The public platform configuration (GET /api/config, docs/compatibility.md#group-info): title, slogan,
 * footerInfo and beianInfo. Fetched once at start without refresh or retry (docs/compatibility.md#client-constants; App's
 * `ConfigSync`), then kept current by the `ReceivedConfigUpdate` push (realtime/dispatch.ts),
 * which writes into the same query. Until the first answer the restored or default values show.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { DEFAULT_GLOBAL_CONFIG, type GlobalConfig } from '@flagwave/shared/schemas/config'
import { infoApi } from './info'
import { queryKeys } from './queryKeys'

export const configQuery = queryOptions({
  queryKey: queryKeys.config,
  queryFn: infoApi.config,
  staleTime: Number.POSITIVE_INFINITY,
  refetchInterval: false,
  retry: false,
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
})

export const useGlobalConfig = (): GlobalConfig => useQuery(configQuery).data ?? DEFAULT_GLOBAL_CONFIG

/** `{title}::CTF` */
export const platformName = (config: GlobalConfig): string => `${config.title}::CTF`
