import type { ComponentType } from 'react'
import { Burger, Drawer, Group, Stack } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconEye, IconFlag, IconHome, IconInfoCircle, IconNews, IconSettings, IconUsersGroup } from '@tabler/icons-react'
import { NavLink } from 'react-router-dom'
import type { Role } from '@flagwave/shared/enums'
import { hasRole, useRole } from '../../stores/session'
import { useRecentGame } from '../../stores/recentGame'
import { ColorSchemeToggle } from '../ColorSchemeToggle/ColorSchemeToggle'
import { Logo } from '../Logo/Logo'
import { UserMenu } from '../UserMenu/UserMenu'
import classes from './AppNavbar.module.css'

interface NavItem {
  to: string
  label: string
  icon: ComponentType<{ size?: number }>
  end?: boolean
  minRole?: Role
  testId: string
}

function useNavItems(): NavItem[] {
  const recentGame = useRecentGame((state) => state.gameId)
  return [
    { to: '/', label: '主页', icon: IconHome, end: true, testId: 'nav-home' },
    { to: '/posts', label: '文章', icon: IconNews, testId: 'nav-posts' },
    { to: '/games', label: '比赛', icon: IconFlag, testId: 'nav-games' },
    { to: '/teams', label: '队伍', icon: IconUsersGroup, testId: 'nav-teams' },
    { to: '/about', label: '关于', icon: IconInfoCircle, testId: 'nav-about' },
    {
      to: recentGame ? `/games/${recentGame}/monitor/events` : '/games',
      label: '监控',
      icon: IconEye,
      minRole: 'Monitor',
      testId: 'nav-monitor',
    },
    { to: '/admin/games', label: '管理', icon: IconSettings, minRole: 'Admin', testId: 'nav-admin' },
  ]
}

function NavLinks({ onNavigate, vertical = false }: { onNavigate?: () => void; vertical?: boolean }) {
  const role = useRole()
  const items = useNavItems().filter((item) => !item.minRole || hasRole(role, item.minRole))
  const links = items.map(({ to, label, icon: Icon, end, testId }) => (
    <NavLink key={testId} to={to} end={end} className={classes.link} onClick={onNavigate} data-testid={testId}>
      <Icon size={18} />
      <span>{label}</span>
    </NavLink>
  ))
  return vertical ? <Stack gap={4}>{links}</Stack> : <Group gap={4} wrap="nowrap">{links}</Group>
}

/** The top bar of WithNavbar: logo/title, section links, colour-scheme switch and user menu. */
export function AppNavbar() {
  const [opened, { toggle, close }] = useDisclosure(false)
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" className={classes.bar}>
      <Group gap="lg" wrap="nowrap">
        <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="导航菜单" />
        <Logo />
        <nav className={classes.desktop}>
          <NavLinks />
        </nav>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <ColorSchemeToggle />
        <UserMenu />
      </Group>
      <Drawer opened={opened} onClose={close} size="xs" title="导航" hiddenFrom="md">
        <NavLinks vertical onNavigate={close} />
      </Drawer>
    </Group>
  )
}
