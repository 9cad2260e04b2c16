/**
 * Providers (Mantine theme, notifications, modals), the router, and the app-wide data: the
 * session (profile), the global configuration and the realtime connection.
 */
import { useEffect } from 'react'
import { MantineProvider } from '@mantine/core'
import { ModalsProvider } from '@mantine/modals'
import { Notifications } from '@mantine/notifications'
import { createBrowserRouter, RouterProvider } from 'react-router-dom'
import { REFRESH_INTERVAL_MS } from '@flagwave/shared/limits'
import { accountApi, PROFILE_KEY } from './api/account'
import { installCachePersistence } from './api/cache'
import { CONFIG_KEY, infoApi } from './api/info'
import { useQuery } from './api/useQuery'
import { startRealtime } from './realtime/dispatch'
import { routes } from './routes'
import { platformName, useConfigStore } from './stores/config'
import { useSession } from './stores/session'
import { colorSchemeManager, DEFAULT_COLOR_SCHEME, MODALS_PROPS, NOTIFICATIONS_PROPS, theme } from './theme'

const router = createBrowserRouter(routes)

/** Keeps the session's profile fresh (10 s while signed in; on focus and reconnect). */
function SessionSync() {
  const status = useSession((state) => state.status)
  const setProfile = useSession((state) => state.setProfile)
  const handleProfileError = useSession((state) => state.handleProfileError)
  useQuery(PROFILE_KEY, accountApi.profile, {
    refreshInterval: status === 'authenticated' ? REFRESH_INTERVAL_MS : 0,
    onSuccess: setProfile,
    onError: handleProfileError,
  })
  return null
}

/** GET /api/config once: no refresh, no retry (SPEC §9); pushes keep it current. */
function ConfigSync() {
  const setConfig = useConfigStore((state) => state.setConfig)
  const title = useConfigStore((state) => state.config.title)
  useQuery(CONFIG_KEY, infoApi.config, {
    refreshInterval: 0,
    retry: false,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    onSuccess: setConfig,
  })
  useEffect(() => {
    document.title = platformName({ ...useConfigStore.getState().config, title })
  }, [title])
  return null
}

export function App() {
  useEffect(() => {
    installCachePersistence()
    return startRealtime()
  }, [])

  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme={DEFAULT_COLOR_SCHEME}>
      <Notifications {...NOTIFICATIONS_PROPS} />
      <ModalsProvider {...MODALS_PROPS}>
        <SessionSync />
        <ConfigSync />
        <RouterProvider router={router} />
      </ModalsProvider>
    </MantineProvider>
  )
}

export default App
