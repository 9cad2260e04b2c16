import { useEffect, useState } from 'react'
import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { notifications } from '@mantine/notifications'
import { IconUserPlus } from '@tabler/icons-react'
import type { Role } from '@flagwave/shared/enums'
import { AdminUserInfoModel, type UserInfoModel } from '@flagwave/shared/schemas/users'
import { adminApi } from '../../api/admin'
import { queryKeys } from '../../api/queryKeys'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { CopyableText } from '../../components/CopyableText/CopyableText'
import { UserBatchCreate } from '../../components/UserBatchCreate/UserBatchCreate'
import { UserTable } from '../../components/UserTable/UserTable'
import { ROLE_LABELS } from '../../utils/roleLabels'
import { useSession } from '../../stores/session'
import { notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { SearchableList } from '../../components/SearchableList/SearchableList'
import { useSearchableList } from '../../components/SearchableList/useSearchableList'
import { useRowActions } from '../../hooks/useAction'
import { useAction } from '../../hooks/useAction'
import { ModalFooter } from '../../components/ModalFooter/ModalFooter'
import { t } from '../../i18n'

const PAGE_SIZE = 20

interface EditValues {
  userName: string
  email: string
  realName: string
  stdNumber: string
  phone: string
  bio: string
}

/** Empty optional fields are sent as null ("keep"): the phone rule rejects "" (docs/compatibility.md#user-shapes). */
const editBody = (values: EditValues) => ({
  userName: values.userName.trim(),
  email: values.email.trim(),
  realName: values.realName.trim(),
  stdNumber: values.stdNumber.trim(),
  phone: values.phone.trim() === '' ? null : values.phone.trim(),
  bio: values.bio,
})

function EditUserModal({ user, onClose, onSaved }: { user: UserInfoModel | null; onClose: () => void; onSaved: () => void }) {
  const { busy, run } = useAction()
  const form = useForm<EditValues>({
    mode: 'controlled',
    initialValues: { userName: '', email: '', realName: '', stdNumber: '', phone: '', bio: '' },
    validate: (values) => zodErrors(AdminUserInfoModel, editBody(values)),
  })
  useEffect(() => {
    if (!user) return
    const values = {
      userName: user.userName ?? '',
      email: user.email ?? '',
      realName: user.realName ?? '',
      stdNumber: user.stdNumber ?? '',
      phone: user.phone ?? '',
      bio: user.bio ?? '',
    }
    form.setInitialValues(values)
    form.setValues(values)
  }, [user?.id])

  const submit = form.onSubmit(async (values) => {
    if (!user) return
    await run(t('更新用户失败'), async () => {
      const body = editBody(values)
      await adminApi.users.update(user.id, body)
      // The server answers 200 even when the account store refused the change (docs/compatibility.md#group-admin).
      const stored = await adminApi.users.get(user.id)
      if (stored.userName !== body.userName || (stored.email ?? '') !== body.email) {
        notifications.show({ color: 'yellow', title: t('部分修改未保存'), message: t('用户名或邮箱可能已被占用或无效，服务器未保存这些修改') })
      } else {
        notifySuccess(t('已更新 {{userName}} 的信息', { userName: stored.userName }))
      }
      onSaved()
      onClose()
    })
  })

  return (
    <Modal opened={user !== null} onClose={onClose} title={t('编辑用户 · {{v0}}', { v0: user?.userName ?? '' })} size="lg" data-testid="user-edit-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput label={t('用户名')} data-testid="user-edit-username" {...form.getInputProps('userName')} />
            <TextInput label={t('邮箱')} data-testid="user-edit-email" {...form.getInputProps('email')} />
          </Group>
          <Group grow align="flex-start">
            <TextInput label={t('真实姓名')} data-testid="user-edit-realname" {...form.getInputProps('realName')} />
            <TextInput label={t('学工号')} data-testid="user-edit-stdnumber" {...form.getInputProps('stdNumber')} />
            <TextInput label={t('手机号')} data-testid="user-edit-phone" {...form.getInputProps('phone')} />
          </Group>
          <Textarea label={t('个人简介')} autosize minRows={2} data-testid="user-edit-bio" {...form.getInputProps('bio')} />
          <Text size="xs" c="dimmed">
            {t('用户 ID：')}{user?.id}
          </Text>
          <ModalFooter onCancel={onClose} confirmLabel={t('保存')} loading={busy} confirmTestId="user-edit-save" />
        </Stack>
      </form>
    </Modal>
  )
}

/**
 * admin/Users: the paged user list (GET /api/admin/users) or a search (POST …/search?hint=),
 * with role changes, ban/unban, account approval (e-mail confirmed), password reset, editing,
 * deletion and batch creation.
 */
export default function Users() {
  const selfId = useSession((state) => state.profile?.userId ?? null)
  const [editing, setEditing] = useState<UserInfoModel | null>(null)
  const [password, setPassword] = useState<{ userName: string; value: string } | null>(null)
  const [batchOpened, setBatchOpened] = useState(false)
  const list = useSearchableList<UserInfoModel>({
    pageSize: PAGE_SIZE,
    listKey: queryKeys.admin.users,
    list: adminApi.users.list,
    searchKey: queryKeys.admin.userSearch,
    search: adminApi.users.search,
  })
  const refetch = () => void list.query.refetch()
  const rows = useRowActions<string>()

  /** Apply a change locally at once, send it, then refetch the page. */
  const change = async (user: UserInfoModel, body: Parameters<typeof adminApi.users.update>[1], patch: Partial<UserInfoModel>, success: string) => {
    await rows.run(user.id, t('操作失败'), async () => {
      await adminApi.users.update(user.id, body)
      list.patchRows((u) => (u.id === user.id ? { ...u, ...patch } : u))
      notifySuccess(success)
    })
    refetch()
  }

  const setRole = (user: UserInfoModel, role: Role) => void change(user, { role }, { role }, t('{{userName}} 的角色已改为 {{role}}', { userName: user.userName, role: ROLE_LABELS[role] }))

  const toggleBan = async (user: UserInfoModel) => {
    if (user.role === 'Banned') return void change(user, { role: 'User' }, { role: 'User' }, t('已解除封禁 {{userName}}', { userName: user.userName }))
    const ok = await confirmDialog({
      title: t('封禁用户'),
      message: t('确定封禁 {{userName}} 吗？该用户将立即被登出，无法再访问平台。', { userName: user.userName }),
      confirmLabel: t('封禁'),
      danger: true,
    })
    if (ok) void change(user, { role: 'Banned' }, { role: 'Banned' }, t('已封禁 {{userName}}', { userName: user.userName }))
  }

  const toggleConfirmed = (user: UserInfoModel, confirmed: boolean) =>
    void change(user, { emailConfirmed: confirmed }, { emailConfirmed: confirmed }, confirmed ? t('已批准 {{userName}} 的账户', { userName: user.userName }) : t('已将 {{userName}} 标记为未确认', { userName: user.userName }))

  const resetPassword = async (user: UserInfoModel) => {
    const ok = await confirmDialog({ title: t('重置密码'), message: t('确定为 {{userName}} 生成一个新的随机密码吗？该用户现有的登录会话将失效。', { userName: user.userName }), confirmLabel: t('重置') })
    if (!ok) return
    await rows.run(user.id, t('重置密码失败'), async () => {
      const value = await adminApi.users.resetPassword(user.id)
      setPassword({ userName: user.userName ?? '', value })
    })
  }

  const remove = async (user: UserInfoModel) => {
    const ok = await confirmDialog({ title: t('删除用户'), message: t('确定删除用户 {{userName}} 吗？此操作不可恢复。', { userName: user.userName }), confirmLabel: t('删除'), danger: true })
    if (!ok) return
    await rows.run(user.id, t('删除用户失败'), async () => {
      await adminApi.users.remove(user.id)
      notifySuccess(t('已删除用户 {{userName}}', { userName: user.userName }))
      await list.query.refetch()
    })
  }

  return (
    <>
      <SearchableList
        list={list}
        title={t('用户管理')}
        pageTestId="admin-users-page"
        searchTestId="admin-user"
        searchPlaceholder={t('搜索用户名、邮箱、学工号、姓名或 ID')}
        searchWidth={320}
        emptyTestId="admin-users-empty"
        emptyText={t('用户')}
        totalText={(total) => t('共 {{total}} 个用户', { total })}
        totalTestId="admin-users-total"
        paginationTestId="admin-users-pagination"
        actions={
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setBatchOpened(true)} data-testid="admin-user-batch-open">
            {t('批量添加')}
          </Button>
        }
      >
      <UserTable
        users={list.query.data?.data ?? []}
        selfId={selfId}
        busy={rows.busy}
        onRoleChange={setRole}
        onToggleBan={(user) => void toggleBan(user)}
        onToggleConfirmed={toggleConfirmed}
        onEdit={setEditing}
        onResetPassword={(user) => void resetPassword(user)}
        onDelete={(user) => void remove(user)}
      />
      </SearchableList>
      <EditUserModal user={editing} onClose={() => setEditing(null)} onSaved={refetch} />
      <Modal opened={password !== null} onClose={() => setPassword(null)} title={t('密码已重置')} data-testid="reset-password-modal">
        <Stack gap="sm">
          <Text size="sm">
            {password?.userName} {t('的新密码如下。关闭后将无法再次查看，请立即复制并安全地交给该用户。')}
          </Text>
          {password && <CopyableText value={password.value} copiedMessage={t('密码已复制')} testId="reset-password-value" copyTestId="reset-password-copy" />}
          <Group justify="flex-end">
            <Button onClick={() => setPassword(null)} data-testid="reset-password-close">
              {t('完成')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <UserBatchCreate opened={batchOpened} onClose={() => setBatchOpened(false)} onCreated={refetch} />
    </>
  )
}
