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
import { LazyTooltip } from '../HintTooltip/LazyTooltip'
import { Logo } from '../Logo/Logo'
import { UserMenu } from '../UserMenu/UserMenu'
import classes from './AppNavbar.module.css'
import { t } from '../../i18n'

const NavDrawer = lazy(() => import('./NavDrawer'))

/** Shown on the monitor entry until a game has been opened in this browser. */
const MONITOR_NO_GAME_HINT = t('请先打开一场比赛，再进入它的监控')

interface NavItem {
  /** Target; null renders the entry disabled, with `disabledHint` as its tooltip. */
  to: string | null
  label: string
  icon: ComponentType<{ size?: number }>
  /** Whether the entry is the current section (route matching is case-insensitive, like the routes). */
  active: (pathname: string) => boolean
  minRole?: Role
  disabledHint?: string
  testId: string
}

/** Any page of a game's monitor: /games/{id}/monitor and everything under it. */
const isMonitorPage = (pathname: string) => matchPath('/games/:id/monitor/*', pathname) !== null
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
      // The monitor of the game last opened (stores/recentGame, set by WithGameTab); none yet → disabled.
      to: recentGame ? `/games/${recentGame}/monitor/events` : null,
      label: t('监控'),
      icon: IconEye,
      active: isMonitorPage,
      minRole: 'Monitor',
      disabledHint: MONITOR_NO_GAME_HINT,
      testId: 'nav-monitor',
    },
    { to: '/admin/games', label: t('管理'), icon: IconSettings, active: under('/admin'), minRole: 'Admin', testId: 'nav-admin' },
  ]
}

function NavLinks({ onNavigate, vertical = false }: { onNavigate?: () => void; vertical?: boolean }) {
  const role = useRole()
  const { pathname } = useLocation()
  const items = useNavItems().filter((item) => !item.minRole || hasRole(role, item.minRole))
  const links = items.map(({ to, label, icon: Icon, active, disabledHint, testId }) => {
    const current = active(pathname)
    const content = (
      <>
        <Icon size={18} />
        <span>{label}</span>
      </>
    )
    if (to === null) {
      const entry = (
        <span
          className={classes.link}
          role="link"
          aria-disabled="true"
          tabIndex={0}
          data-disabled
          data-active={current || undefined}
          aria-current={current ? 'page' : undefined}
          data-testid={testId}
        >
          {content}
        </span>
      )
      return (
        <LazyTooltip key={testId} label={disabledHint} withArrow position={vertical ? 'right' : 'bottom'} events={{ hover: true, focus: true, touch: true }}>
          {entry}
        </LazyTooltip>
      )
    }
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
