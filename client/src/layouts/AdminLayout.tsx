import { Stack, Tabs } from '@mantine/core'
import { IconFiles, IconFlag, IconHistory, IconKey, IconServer, IconSettings, IconUser, IconUsersGroup } from '@tabler/icons-react'
import { Outlet, useLocation, useNavigate } from 'react-router-dom'
import { t } from '../i18n'

const SECTIONS = [
  { value: '/admin/games', label: t('比赛'), icon: IconFlag },
  { value: '/admin/teams', label: t('队伍'), icon: IconUsersGroup },
  { value: '/admin/users', label: t('用户'), icon: IconUser },
  { value: '/admin/instances', label: t('实例'), icon: IconServer },
  { value: '/admin/files', label: t('文件'), icon: IconFiles },
  { value: '/admin/logs', label: t('日志'), icon: IconHistory },
  { value: '/admin/configs', label: t('全局设置'), icon: IconSettings },
  { value: '/admin/sso', label: t('单点登录'), icon: IconKey },
]

/** The administration frame: section tabs above the routed admin screen. */
function AdminLayout() {
  const navigate = useNavigate()
  const path = useLocation().pathname.toLowerCase()
  const active = SECTIONS.find((section) => path.startsWith(section.value))?.value ?? null
  return (
    <Stack gap="md">
      <Tabs value={active} onChange={(value) => value && navigate(value)} data-testid="admin-tabs">
        <Tabs.List>
          {SECTIONS.map(({ value, label, icon: Icon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} />}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </Stack>
  )
}

export default AdminLayout
