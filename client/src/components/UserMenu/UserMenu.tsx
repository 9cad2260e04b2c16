import { Avatar, Button, Group, Menu, Text, UnstyledButton } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { IconChevronDown, IconLogout, IconUser, IconUsersGroup } from '@tabler/icons-react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { errorMessage } from '../../api/http'
import { useSession } from '../../stores/session'
import classes from './UserMenu.module.css'
import { t } from '../../i18n'

/** Signed in: avatar and name with profile / teams / logout; signed out: login and register. */
export function UserMenu() {
  const profile = useSession((state) => state.profile)
  const logout = useSession((state) => state.logout)
  const navigate = useNavigate()
  const location = useLocation()

  if (!profile) {
    const onAccountPage = location.pathname.toLowerCase().startsWith('/account/')
    const from = onAccountPage ? '' : `?from=${encodeURIComponent(location.pathname + location.search)}`
    return (
      <Group gap="xs" wrap="nowrap">
        <Button component={Link} to={`/account/login${from}`} variant="default" size="sm" data-testid="nav-login">
          {t('登录')}
        </Button>
        <Button component={Link} to="/account/register" size="sm" data-testid="nav-register">
          {t('注册')}
        </Button>
      </Group>
    )
  }

  const onLogout = async () => {
    try {
      await logout()
      notifications.show({ color: 'brand', message: t('已退出登录') })
      navigate('/')
    } catch (error) {
      notifications.show({ color: 'alert', title: t('退出登录失败'), message: errorMessage(error) })
    }
  }

  return (
    <Menu position="bottom-end" width={200} withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.target} data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar src={profile.avatar ?? undefined} alt={profile.userName ?? ''} radius="xl" size={30} color="brand">
              {profile.userName?.slice(0, 1).toUpperCase()}
            </Avatar>
            <Text size="sm" fw={500} className={classes.name} data-testid="user-menu-name">
              {profile.userName}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{profile.role}</Menu.Label>
        <Menu.Item component={Link} to="/account/profile" leftSection={<IconUser size={16} />} data-testid="user-menu-profile">
          {t('个人资料')}
        </Menu.Item>
        <Menu.Item component={Link} to="/teams" leftSection={<IconUsersGroup size={16} />}>
          {t('我的队伍')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="alert" leftSection={<IconLogout size={16} />} onClick={() => void onLogout()} data-testid="user-menu-logout">
          {t('退出登录')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
