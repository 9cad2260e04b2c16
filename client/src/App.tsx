/**
 * Providers (Mantine theme, notifications, modals), the router, and the app-wide data: the
 * session (profile), the global configuration and the realtime connection.
 */
import { useEffect } from 'react'
import { MantineProvider } from '@mantine/core'
import { createBrowserRouter, RouterProvider } from 'react-router-dom'
import { REFRESH_INTERVAL_MS } from '@flagwave/shared/limits'
import { QueryClientProvider, useQuery } from '@tanstack/react-query'
import { DEFAULT_GLOBAL_CONFIG } from '@flagwave/shared/schemas/config'
import { configQuery, faviconUrl, platformName } from './api/globalConfig'
import { queryClient } from './api/queryClient'
import { startRealtime } from './realtime/dispatch'
import { routes } from './routes'
import { hasSignedInMarker, profileQuery, useSession } from './stores/session'
import { colorSchemeManager, DEFAULT_COLOR_SCHEME, theme } from './theme'
import { NotificationsHost } from './components/NotificationsHost/NotificationsHost'
import { ModalsHost } from './components/ConfirmDialog/modalsHost'

const router = createBrowserRouter(routes)

/**
 * Keeps the session's profile fresh (10 s while signed in; on focus and reconnect). Nobody signed in
 * and no session marker: no request at all (an anonymous page load makes no 401), re-checked at each focus.
 */
const mayHaveSession = (): boolean => useSession.getState().status === 'authenticated' || hasSignedInMarker()

function SessionSync() {
  const status = useSession((state) => state.status)
  useQuery({ ...profileQuery, enabled: mayHaveSession, refetchInterval: status === 'authenticated' ? REFRESH_INTERVAL_MS : false })
  return null
}

/** GET /api/config once at start: no refresh, no retry (docs/compatibility.md#client-constants); pushes keep it current. */
function ConfigSync() {
  const config = useQuery({ ...configQuery, refetchOnMount: 'always' }).data ?? DEFAULT_GLOBAL_CONFIG
  useEffect(() => {
    document.title = platformName(config)
    // The organiser's favicon, or the built-in one of index.html.
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (icon) {
      icon.dataset.builtin ??= icon.href
      icon.type = config.faviconHash ? '' : 'image/svg+xml'
      icon.href = faviconUrl(config) ?? icon.dataset.builtin
    }
  }, [config])
  return null
}

export function App() {
  useEffect(() => startRealtime(), [])

  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme={DEFAULT_COLOR_SCHEME}>
        <NotificationsHost />
        <SessionSync />
        <ConfigSync />
        <RouterProvider router={router} />
        <ModalsHost />
      </MantineProvider>
    </QueryClientProvider>
  )
}

