/**
 * The public platform configuration (GET /api/config, CONTRACT §3.6.4): title, slogan,
 * footerInfo and beianInfo. Fetched once without refresh or retry (SPEC §9), then kept current
 * by the `ReceivedConfigUpdate` push (realtime/dispatch.ts).
 */
import { create } from 'zustand'
import { DEFAULT_GLOBAL_CONFIG, type GlobalConfig } from '@flagwave/shared/schemas/config'
import { getCachedData, setCachedData } from '../api/cache'
import { CONFIG_KEY } from '../api/info'

interface ConfigState {
  config: GlobalConfig
  /** The server's answer (or a push) has arrived; before that the cached or default values show. */
  loaded: boolean
  setConfig: (config: GlobalConfig) => void
}

export const useConfigStore = create<ConfigState>((set) => ({
  config: getCachedData<GlobalConfig>(CONFIG_KEY) ?? DEFAULT_GLOBAL_CONFIG,
  loaded: false,
  setConfig: (config) => {
    setCachedData(CONFIG_KEY, config)
    set({ config, loaded: true })
  },
}))

export const useGlobalConfig = (): GlobalConfig => useConfigStore((state) => state.config)

/** `{title}::CTF` */
export const platformName = (config: GlobalConfig): string => `${config.title}::CTF`
