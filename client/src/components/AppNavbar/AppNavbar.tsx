import { lazy, Suspense, useState, type ComponentType } from 'react'
import { Burger, Group, Stack } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconEye, IconFlag, IconHome, IconInfoCircle, IconNews, IconSettings, IconUsersGroup } from '@tabler/icons-react'
import { Link, matchPath, useLocation } from 'react-router-dom'
import type { Role } from '@flagwave/shared/enums'
import { hasRole, useRole } from '../../stores/session'
import { useRecentGame } from '../../stores/recentGame'
import { ColorSchemeToggle } from '../ColorSchemeToggle/ColorSchemeToggle'
import { LanguageSwitch } from '../LanguageSwitch/LanguageSwitch'
import { Logo } from '../Logo/Logo'
import { UserMenu } from '../UserMenu/UserMenu'
import classes from './AppNavbar.module.css'
import { t } from '../../i18n'

const NavDrawer = lazy(() => import('./NavDrawer'))

interface NavItem {
  to: string
  label: string
  icon: ComponentType<{ size?: number }>
  /** Whether the entry is the current section (route matching is case-insensitive, like the routes). */
  active: (pathname: string) => boolean
  minRole?: Role
  testId: string
}

/** Any page of a game's monitor (/games/{id}/monitor and everything under it) or the monitor's game list. */
const isMonitorPage = (pathname: string) => matchPath('/games/:id/monitor/*', pathname) !== null || matchPath('/monitor', pathname) !== null
/** `to` itself or a page under it. */
const under = (to: string) => (pathname: string) => matchPath({ path: to, end: false }, pathname) !== null

function useNavItems(): NavItem[] {
  const recentGame = useRecentGame((state) => state.gameId)
  return [
    { to: '/', label: t('主页'), icon: IconHome, active: (pathname) => matchPath({ path: '/', end: true }, pathname) !== null, testId: 'nav-home' },
    { to: '/posts', label: t('文章'), icon: IconNews, active: under('/posts'), testId: 'nav-posts' },
    // A game's monitor pages belong to the monitor entry, not to 比赛.
    { to: '/games', label: t('比赛'), icon: IconFlag, active: (pathname) => under('/games')(pathname) && !isMonitorPage(pathname), testId: 'nav-games' },
    { to: '/teams', label: t('队伍'), icon: IconUsersGroup, active: under('/teams'), testId: 'nav-teams' },
    { to: '/about', label: t('关于'), icon: IconInfoCircle, active: under('/about'), testId: 'nav-about' },
    {
      // The monitor of the game last opened (stores/recentGame, set by WithGameTab); none yet → the list of games to monitor.
      to: recentGame ? `/games/${recentGame}/monitor/events` : '/monitor',
      label: t('监控'),
      icon: IconEye,
      active: isMonitorPage,
      minRole: 'Monitor',
      testId: 'nav-monitor',
    },
    { to: '/admin/games', label: t('管理'), icon: IconSettings, active: under('/admin'), minRole: 'Admin', testId: 'nav-admin' },
  ]
}

function NavLinks({ onNavigate, vertical = false }: { onNavigate?: () => void; vertical?: boolean }) {
  const role = useRole()
  const { pathname } = useLocation()
  const items = useNavItems().filter((item) => !item.minRole || hasRole(role, item.minRole))
  const links = items.map(({ to, label, icon: Icon, active, testId }) => {
    const current = active(pathname)
    const content = (
      <>
        <Icon size={18} />
        <span>{label}</span>
      </>
    )
    return (
      <Link
        key={testId}
        to={to}
        className={classes.link}
        onClick={onNavigate}
        data-active={current || undefined}
        aria-current={current ? 'page' : undefined}
        data-testid={testId}
      >
        {content}
      </Link>
    )
  })
  return vertical ? <Stack gap={4}>{links}</Stack> : <Group gap={4} wrap="nowrap">{links}</Group>
}

/** The top bar of WithNavbar: logo/title, section links, language and colour-scheme switches and user menu. */
export function AppNavbar() {
  const [opened, { toggle, close }] = useDisclosure(false)
  // The drawer's code loads with the first opening and stays mounted after it (closing animates).
  const [drawerWanted, setDrawerWanted] = useState(false)
  if (opened && !drawerWanted) setDrawerWanted(true)
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" className={classes.bar}>
      <Group gap="lg" wrap="nowrap">
        <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label={t('导航菜单')} />
        <Logo />
        <nav className={classes.desktop}>
          <NavLinks />
        </nav>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <LanguageSwitch />
        <ColorSchemeToggle />
        <UserMenu />
      </Group>
      {drawerWanted && (
        <Suspense fallback={null}>
          <NavDrawer opened={opened} onClose={close}>
            <NavLinks vertical onNavigate={close} />
          </NavDrawer>
        </Suspense>
      )}
    </Group>
  )
}
