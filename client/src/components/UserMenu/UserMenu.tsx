import { lazy, Suspense } from 'react'
import { Button, Group, Skeleton } from '@mantine/core'
import { Link, useLocation } from 'react-router-dom'
import { useSession } from '../../stores/session'
import { t } from '../../i18n'

const AccountMenu = lazy(() => import('./AccountMenu'))

/** Signed in: avatar and name with profile / teams / logout; signed out: login and register. */
export function UserMenu() {
  const profile = useSession((state) => state.profile)
  const location = useLocation()

  if (!profile) {
    const onAccountPage = location.pathname.toLowerCase().startsWith('/account/')
    const from = onAccountPage ? '' : `?from=${encodeURIComponent(location.pathname + location.search)}`
    return (
      <Group gap="xs" wrap="nowrap">
        <Button component={Link} to={`/account/login${from}`} variant="default" size="sm" data-testid="nav-login">
          {t('登录')}
        </Button>
        {/* Phones: the header has no room for both; the sign-in page links to registration. */}
        <Button component={Link} to="/account/register" size="sm" visibleFrom="xs" data-testid="nav-register">
          {t('注册')}
        </Button>
      </Group>
    )
  }

  return (
    <Suspense fallback={<Skeleton circle height={30} />}>
      <AccountMenu profile={profile} />
    </Suspense>
  )
}
