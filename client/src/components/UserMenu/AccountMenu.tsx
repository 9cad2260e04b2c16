import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { IconChevronDown, IconLogout, IconUser, IconUsersGroup } from '@tabler/icons-react'
import { Link, useNavigate } from 'react-router-dom'
import type { ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import { errorMessage } from '../../api/http'
import { useSession } from '../../stores/session'
import { ROLE_LABELS } from '../../utils/roleLabels'
import classes from './UserMenu.module.css'
import { t } from '../../i18n'

/**
 * The signed-in user's menu: profile, teams, logout. Loaded on its own (UserMenu.tsx) so that an
 * anonymous first page carries no menu or popover code.
 */
export default function AccountMenu({ profile }: { profile: ProfileUserInfoModel }) {
  const logout = useSession((state) => state.logout)
  const navigate = useNavigate()

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
        <Menu.Label data-testid="user-menu-role">{profile.role ? ROLE_LABELS[profile.role] : null}</Menu.Label>
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
