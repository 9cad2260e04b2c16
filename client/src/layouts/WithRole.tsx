import { Navigate, Outlet, useLocation } from 'react-router-dom'
import type { Role } from '@flagwave/shared/enums'
import { FullScreenLoader } from '../components/FullScreenLoader/FullScreenLoader'
import { StatusScreen } from '../components/StatusScreen/StatusScreen'
import { hasRole, useSession } from '../stores/session'
import { t } from '../i18n'

export interface WithRoleProps {
  /** Minimum role (docs/compatibility.md#sessions-and-roles order: Banned < User < Monitor < Admin). */
  role: Role
}

/** The login URL that brings the user back here afterwards. */
export function loginUrl(pathname: string, search = ''): string {
  return `/account/login?from=${encodeURIComponent(pathname + search)}`
}

/**
 * Guards child routes by minimum role: signed out → /account/login?from=…; signed in with a
 * lower role → an access-denied screen; unknown session → loader until the profile answers.
 */
export function WithRole({ role }: WithRoleProps) {
  const status = useSession((state) => state.status)
  const profile = useSession((state) => state.profile)
  const location = useLocation()

  if (status === 'unknown') return <FullScreenLoader />
  if (!profile) return <Navigate to={loginUrl(location.pathname, location.search)} replace />
  if (!hasRole(profile.role, role)) return <StatusScreen code="403" title={t('无权访问')} description={t('当前账户没有访问此页面的权限')} testId="forbidden" />
  return <Outlet />
}

