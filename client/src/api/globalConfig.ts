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
import { t } from '../i18n'

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
/** What follows the title in the platform's name (a name, not text to translate). */
export const PLATFORM_SUFFIX = '::CTF'
export const platformName = (config: GlobalConfig): string => `${config.title}${PLATFORM_SUFFIX}`

/** The slogan; the built-in one in the interface language. */
export const sloganText = (config: GlobalConfig): string => (config.slogan === DEFAULT_GLOBAL_CONFIG.slogan ? t('实时推送的 CTF 竞赛平台') : config.slogan)

/** The organiser's logo and favicon (`/assets/{hash}/…`), or null for the built-in ones. */
export const logoUrl = (config: GlobalConfig): string | null => (config.logoHash ? `/assets/${config.logoHash}/logo` : null)
export const faviconUrl = (config: GlobalConfig): string | null => (config.faviconHash ? `/assets/${config.faviconHash}/favicon` : null)
