import { useEffect, useState } from 'react'
import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Center,
  CloseButton,
  Group,
  Loader,
  Modal,
  Pagination,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCrown, IconEdit, IconSearch, IconTrash } from '@tabler/icons-react'
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from '@flagwave/shared/limits'
import type { ArrayResponse } from '@flagwave/shared/schemas/common'
import { AdminTeamModel, type TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { adminApi } from '../../api/admin'
import { useQuery } from '@tanstack/react-query'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { sortedMembers } from '../../stores/teams'
import { notifyError, notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { LoadError } from '../../components/LoadError/LoadError'

const PAGE_SIZE = 20

interface EditValues {
  name: string
  bio: string
  locked: boolean
}

function EditTeamModal({ team, onClose, onSaved }: { team: TeamInfoModel | null; onClose: () => void; onSaved: () => void }) {
  const [busy, setBusy] = useState(false)
  const form = useForm<EditValues>({
    mode: 'controlled',
    initialValues: { name: '', bio: '', locked: false },
    validate: (values) => zodErrors(AdminTeamModel, { name: values.name.trim(), bio: values.bio, locked: values.locked }),
  })
  useEffect(() => {
    if (!team) return
    const values = { name: team.name ?? '', bio: team.bio ?? '', locked: team.locked }
    form.setInitialValues(values)
    form.setValues(values)
  }, [team?.id])

  const submit = form.onSubmit(async (values) => {
    if (!team) return
    setBusy(true)
    try {
      await adminApi.teams.update(team.id, { name: values.name.trim(), bio: values.bio, locked: values.locked })
      notifySuccess(`已更新队伍 ${values.name.trim() || team.name}`)
      onSaved()
      onClose()
    } catch (error) {
      notifyError(error, '更新队伍失败')
    } finally {
      setBusy(false)
    }
  })

  return (
    <Modal opened={team !== null} onClose={onClose} title={`编辑队伍 · ${team?.name ?? ''}`} data-testid="admin-team-edit-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="队伍名称" description={`不超过 ${TEAM_NAME_MAX} 个字符；留空则不修改`} data-testid="admin-team-edit-name" {...form.getInputProps('name')} />
          <Textarea
            label="队伍签名"
            description={`不超过 ${TEAM_BIO_MAX} 个字符；留空则不修改`}
            autosize
            minRows={2}
            data-testid="admin-team-edit-bio"
            {...form.getInputProps('bio')}
          />
          <Switch label="锁定队伍（锁定后成员不能变动）" data-testid="admin-team-edit-locked" {...form.getInputProps('locked', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              取消
            </Button>
            <Button type="submit" loading={busy} data-testid="admin-team-edit-save">
              保存
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}

/** admin/Teams: paged teams with members (GET /api/admin/teams), search, edit (name, bio, lock), delete. */
export default function Teams() {
  const [page, setPage] = useState(1)
  const [input, setInput] = useState('')
  const [hint, setHint] = useState('')
  const [busy, setBusy] = useState<Record<number, boolean>>({})
  const [editing, setEditing] = useState<TeamInfoModel | null>(null)

  const queryKey = hint ? queryKeys.admin.teamSearch(hint) : queryKeys.admin.teams(PAGE_SIZE, (page - 1) * PAGE_SIZE)
  const query = useQuery<ArrayResponse<TeamInfoModel>>({ queryKey, queryFn: () => (hint ? adminApi.teams.search(hint) : adminApi.teams.list(PAGE_SIZE, (page - 1) * PAGE_SIZE)) })
  const { data, error, isLoading } = query
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE))
  const setRowBusy = (id: number, value: boolean) => setBusy((state) => ({ ...state, [id]: value }))

  const toggleLock = async (team: TeamInfoModel, locked: boolean) => {
    setRowBusy(team.id, true)
    try {
      await adminApi.teams.update(team.id, { locked })
      queryClient.setQueryData<ArrayResponse<TeamInfoModel>>(queryKey, (current) => (current ? { ...current, data: current.data.map((t) => (t.id === team.id ? { ...t, locked } : t)) } : current!))
      notifySuccess(locked ? `已锁定队伍 ${team.name}` : `已解锁队伍 ${team.name}`)
    } catch (cause) {
      notifyError(cause, '操作失败')
    } finally {
      setRowBusy(team.id, false)
      void query.refetch()
    }
  }

  const remove = async (team: TeamInfoModel) => {
    const ok = await confirmDialog({
      title: '删除队伍',
      message: `确定删除队伍「${team.name}」吗？它的比赛报名将一并删除，此操作不可恢复。`,
      confirmLabel: '删除',
      danger: true,
    })
    if (!ok) return
    setRowBusy(team.id, true)
    try {
      await adminApi.teams.remove(team.id)
      notifySuccess(`已删除队伍 ${team.name}`)
      await query.refetch()
    } catch (cause) {
      notifyError(cause, '删除队伍失败')
    } finally {
      setRowBusy(team.id, false)
    }
  }

  const search = () => {
    setHint(input.trim())
    setPage(1)
  }

  return (
    <Stack gap="md" data-testid="admin-teams-page">
      <Group justify="space-between" align="flex-end">
        <Title order={2}>队伍管理</Title>
        <Group gap="xs">
          <TextInput
            placeholder="搜索队伍名称"
            w={280}
            leftSection={<IconSearch size={16} />}
            rightSection={
              input ? (
                <CloseButton
                  size="sm"
                  aria-label="清除搜索"
                  onClick={() => {
                    setInput('')
                    setHint('')
                  }}
                />
              ) : null
            }
            value={input}
            onChange={(event) => setInput(event.currentTarget.value)}
            onKeyDown={(event) => event.key === 'Enter' && search()}
            data-testid="admin-team-search"
          />
          <Button variant="default" onClick={search} data-testid="admin-team-search-submit">
            搜索
          </Button>
        </Group>
      </Group>
      <LoadError error={error} />
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : data && data.data.length > 0 ? (
        <Table.ScrollContainer minWidth={860}>
          <Table striped highlightOnHover verticalSpacing="xs" data-testid="admin-team-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>队伍</Table.Th>
                <Table.Th>成员</Table.Th>
                <Table.Th w={90}>锁定</Table.Th>
                <Table.Th w={100} ta="right">
                  操作
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((team) => (
                <Table.Tr key={team.id} data-testid="admin-team-row" data-team-id={team.id} data-team-name={team.name ?? ''}>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <Avatar src={team.avatar ?? undefined} size={36} radius="md" color="brand">
                        {team.name?.slice(0, 1).toUpperCase()}
                      </Avatar>
                      <Stack gap={0} style={{ minWidth: 0 }}>
                        <Group gap={6} wrap="nowrap">
                          <Text size="sm" fw={500} truncate>
                            {team.name}
                          </Text>
                          <Text size="xs" c="dimmed">
                            #{team.id}
                          </Text>
                        </Group>
                        <Text size="xs" c="dimmed" truncate maw={320}>
                          {team.bio || '—'}
                        </Text>
                      </Stack>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {sortedMembers(team).map((member) => (
                        <Badge
                          key={member.id}
                          variant={member.captain ? 'light' : 'default'}
                          leftSection={member.captain ? <IconCrown size={12} /> : undefined}
                          style={{ textTransform: 'none' }}
                        >
                          {member.userName}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={team.locked}
                      disabled={busy[team.id]}
                      onChange={(event) => void toggleLock(team, event.currentTarget.checked)}
                      aria-label="锁定队伍"
                      data-testid="admin-team-locked"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="编辑" withArrow>
                        <ActionIcon variant="subtle" onClick={() => setEditing(team)} aria-label="编辑" data-testid="admin-team-edit">
                          <IconEdit size={18} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="删除" withArrow>
                        <ActionIcon variant="subtle" color="alert" loading={busy[team.id]} onClick={() => void remove(team)} aria-label="删除" data-testid="admin-team-delete">
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed" ta="center" py="xl" data-testid="admin-teams-empty">
          {hint ? `没有与「${hint}」匹配的队伍` : '暂无队伍'}
        </Text>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {hint ? `搜索结果 ${data?.length ?? 0} 个（最多 30 个）` : `共 ${data?.total ?? 0} 支队伍`}
        </Text>
        {!hint && pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" />}
      </Group>
      <EditTeamModal team={editing} onClose={() => setEditing(null)} onSaved={() => void query.refetch()} />
    </Stack>
  )
}
