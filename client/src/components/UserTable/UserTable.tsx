import { ActionIcon, Badge, Group, Menu, Select, Switch, Table, Text, Tooltip } from '@mantine/core'
import { IconBan, IconCircleCheck, IconDots, IconEdit, IconKey, IconTrash } from '@tabler/icons-react'
import dayjs from 'dayjs'
import { Role } from '@flagwave/shared/enums'
import type { UserInfoModel } from '@flagwave/shared/schemas/users'
import { NameCell } from '../NameCell/NameCell'
import { t } from '../../i18n'
import { formatTime as formatMoment } from '../GameTime/GameTime'
import { ROLE_LABELS } from '../../utils/roleLabels'
import { byText, byTime, SortableTh, useSortedRows, type Sorters } from '../SortableTh/SortableTh'

const ROLE_COLORS: Record<Role, string> = { Banned: 'alert', User: 'brand', Monitor: 'yellow', Admin: 'grape' }
const roleOptions = Role.map((role) => ({ value: role, label: ROLE_LABELS[role] }))

/** `1970-01-01…` is the "never" sentinel of the wire (docs/compatibility.md#dates). */
const formatTime = (value: string): string => (dayjs(value).year() <= 1970 ? '—' : formatMoment(value))

export interface UserTableProps {
  users: UserInfoModel[]
  /** The signed-in admin: their own role, ban and deletion are not offered. */
  selfId: string | null
  /** User ids with a request in flight. */
  busy: Record<string, boolean>
  onRoleChange: (user: UserInfoModel, role: Role) => void
  onToggleBan: (user: UserInfoModel) => void
  onToggleConfirmed: (user: UserInfoModel, confirmed: boolean) => void
  onEdit: (user: UserInfoModel) => void
  onResetPassword: (user: UserInfoModel) => void
  onDelete: (user: UserInfoModel) => void
}

const USER_SORTERS: Sorters<UserInfoModel, 'name' | 'visited'> = {
  name: (a, b) => byText(a.userName, b.userName),
  visited: (a, b) => byTime(a.lastVisitedUTC, b.lastVisitedUTC),
}

/** The admin users table (docs/compatibility.md#user-shapes UserInfoModel) with per-row actions. */
export function UserTable({ users, selfId, busy, onRoleChange, onToggleBan, onToggleConfirmed, onEdit, onResetPassword, onDelete }: UserTableProps) {
  // By name unless the header asks otherwise (the rows of the page shown).
  const { sorted, sort, toggle } = useSortedRows(users, USER_SORTERS, { key: 'name', direction: 'asc' })
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="admin-user-table">
        <Table.Thead>
          <Table.Tr>
            <SortableTh column="name" sort={sort} onSort={(key) => toggle(key)} testId="admin-user-sort-name">
              {t('用户')}
            </SortableTh>
            <Table.Th>{t('真实姓名 / 学工号')}</Table.Th>
            <Table.Th w={190}>{t('角色')}</Table.Th>
            <Table.Th w={90}>{t('邮箱确认')}</Table.Th>
            <SortableTh column="visited" sort={sort} onSort={(key) => toggle(key, 'desc')} testId="admin-user-sort-visited">
              {t('最近访问')}
            </SortableTh>
            <Table.Th w={120} ta="right">
              {t('操作')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((user) => {
            const self = user.id === selfId
            const role = (user.role ?? 'User') as Role
            const banned = role === 'Banned'
            return (
              <Table.Tr key={user.id} data-testid="admin-user-row" data-user-id={user.id} data-user-name={user.userName ?? ''} data-role={role}>
                <Table.Td>
                  <NameCell
                    avatar={user.avatar}
                    name={user.userName}
                    avatarSize={32}
                    avatarRadius="xl"
                    avatarColor={ROLE_COLORS[role]}
                    detail={user.email}
                    tags={
                      <>
                        {banned && (
                          <Badge size="xs" color="alert" variant="filled" data-testid="user-banned-badge">
                            {t('封禁')}
                          </Badge>
                        )}
                        {self && (
                          <Badge size="xs" variant="light">
                            {t('我')}
                          </Badge>
                        )}
                      </>
                    }
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{user.realName || '—'}</Text>
                  <Text size="xs" c="dimmed">
                    {user.stdNumber || '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    data={roleOptions}
                    value={role}
                    allowDeselect={false}
                    disabled={self || busy[user.id]}
                    onChange={(value) => value && value !== role && onRoleChange(user, value as Role)}
                    comboboxProps={{ withinPortal: true }}
                    data-testid="user-role-select"
                  />
                </Table.Td>
                <Table.Td>
                  <Tooltip label={user.emailConfirmed ? t('已确认，可以登录') : t('未确认：打开以批准此账户')} withArrow>
                    <Switch
                      checked={!!user.emailConfirmed}
                      disabled={busy[user.id]}
                      onChange={(event) => onToggleConfirmed(user, event.currentTarget.checked)}
                      aria-label={t('邮箱已确认')}
                      data-testid="user-email-confirmed"
                    />
                  </Tooltip>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatTime(user.lastVisitedUTC)}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {user.ip}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label={banned ? t('解除封禁') : t('封禁')} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color={banned ? 'brand' : 'alert'}
                        disabled={self}
                        loading={busy[user.id]}
                        onClick={() => onToggleBan(user)}
                        aria-label={banned ? t('解除封禁') : t('封禁')}
                        data-testid="user-ban"
                        data-banned={banned ? 'true' : 'false'}
                      >
                        {banned ? <IconCircleCheck size={18} /> : <IconBan size={18} />}
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('编辑信息')} withArrow>
                      <ActionIcon variant="subtle" onClick={() => onEdit(user)} aria-label={t('编辑信息')} data-testid="user-edit">
                        <IconEdit size={18} />
                      </ActionIcon>
                    </Tooltip>
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" color="gray" aria-label={t('更多操作')} data-testid="user-more">
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item leftSection={<IconKey size={16} />} onClick={() => onResetPassword(user)} data-testid="user-reset-password">
                          {t('重置密码')}
                        </Menu.Item>
                        <Menu.Item color="alert" leftSection={<IconTrash size={16} />} disabled={self} onClick={() => onDelete(user)} data-testid="user-delete">
                          {t('删除用户')}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Group>
                </Table.Td>
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
