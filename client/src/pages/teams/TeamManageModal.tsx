import { useEffect, useState } from 'react'
import {
  ActionIcon,
  Alert,
  Avatar,
  Badge,
  Button,
  Divider,
  FileButton,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCrown, IconLock, IconTrash, IconUpload, IconUserMinus } from '@tabler/icons-react'
import { IMAGE_MIME_TYPES, TEAM_BIO_MAX, TEAM_NAME_MAX } from '@flagwave/shared/limits'
import { TeamUpdateModel, type TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { teamApi } from '../../api/teams'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { InviteCodeBox } from '../../components/InviteCodeBox/InviteCodeBox'
import { sortedMembers, useTeamsStore } from '../../stores/teams'
import { notifyError, notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { removeTeam, upsertTeam } from './teamCache'
import { acceptImage } from '../../utils/acceptImage'
import { t } from '../../i18n'


function DetailsForm({ team }: { team: TeamInfoModel }) {
  const [busy, setBusy] = useState(false)
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: team.name ?? '', bio: team.bio ?? '' },
    validate: (values) => zodErrors(TeamUpdateModel, { name: values.name.trim(), bio: values.bio }),
  })
  // Follow live changes while the captain is not editing.
  const serverValues = JSON.stringify({ name: team.name ?? '', bio: team.bio ?? '' })
  useEffect(() => {
    if (!form.isDirty()) {
      const values = JSON.parse(serverValues) as { name: string; bio: string }
      form.setInitialValues(values)
      form.setValues(values)
    }
  }, [serverValues])

  const submit = form.onSubmit(async (values) => {
    setBusy(true)
    try {
      const updated = await teamApi.update(team.id, { name: values.name.trim(), bio: values.bio })
      upsertTeam(updated)
      const fresh = { name: updated.name ?? '', bio: updated.bio ?? '' }
      form.setInitialValues(fresh)
      form.setValues(fresh)
      notifySuccess(t('队伍信息已更新'))
    } catch (error) {
      notifyError(error, t('更新队伍失败'))
    } finally {
      setBusy(false)
    }
  })

  return (
    <form onSubmit={submit} noValidate style={{ flex: 1 }}>
      <Stack gap="xs">
        <TextInput label={t('队伍名称')} description={t('不超过 {{TEAM_NAME_MAX}} 个字符', { TEAM_NAME_MAX })} data-testid="team-edit-name" {...form.getInputProps('name')} />
        <Textarea label={t('队伍签名')} description={t('不超过 {{TEAM_BIO_MAX}} 个字符', { TEAM_BIO_MAX })} autosize minRows={1} data-testid="team-edit-bio" {...form.getInputProps('bio')} />
        <Group justify="flex-end">
          <Button type="submit" size="xs" loading={busy} disabled={!form.isDirty()} data-testid="team-edit-save">
            {t('保存')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

function AvatarUpload({ team }: { team: TeamInfoModel }) {
  const [busy, setBusy] = useState(false)
  const upload = async (file: File | null) => {
    if (!file || !acceptImage(file, t('头像上传失败'))) return
    setBusy(true)
    try {
      await teamApi.avatar(team.id, file)
      // The push carries the new avatar; fetch the team in case it was missed.
      upsertTeam(await teamApi.get(team.id))
      notifySuccess(t('队伍头像已更新'))
    } catch (error) {
      notifyError(error, t('头像上传失败'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Stack align="center" gap={6} w={120}>
      <Avatar src={team.avatar ?? undefined} size={96} radius="md" color="brand" data-testid="team-manage-avatar" data-src={team.avatar ?? ''}>
        {team.name?.slice(0, 1).toUpperCase()}
      </Avatar>
      <FileButton onChange={(file) => void upload(file)} accept={IMAGE_MIME_TYPES.join(',')} inputProps={{ 'data-testid': 'team-avatar-input' }}>
        {(props) => (
          <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={14} />} loading={busy} data-testid="team-avatar-button">
            {t('更换头像')}
          </Button>
        )}
      </FileButton>
      <Text size="xs" c="dimmed" ta="center">
        {t('PNG、GIF、JPEG、WebP、BMP、TIFF，≤ 3 MB')}
      </Text>
    </Stack>
  )
}

function Members({ team, userId }: { team: TeamInfoModel; userId: string }) {
  const setBusy = useTeamsStore((state) => state.setBusy)
  const [target, setTarget] = useState<string | null>(null)
  const [transferring, setTransferring] = useState(false)
  const members = sortedMembers(team)
  const candidates = members.filter((m) => !m.captain)

  const candidateIds = candidates.map((m) => m.id).join(',')
  useEffect(() => {
    if (target && !candidateIds.split(',').includes(target)) setTarget(null)
  }, [target, candidateIds])

  const kick = async (memberId: string, userName: string) => {
    const ok = await confirmDialog({ title: t('踢出成员'), message: t('确定将 {{userName}} 移出队伍「{{name}}」吗？', { userName, name: team.name }), confirmLabel: t('踢出'), danger: true })
    if (!ok) return
    if (memberId === userId) setBusy(team.id, true)
    try {
      upsertTeam(await teamApi.kick(team.id, memberId))
      notifySuccess(t('已将 {{userName}} 移出队伍', { userName }))
    } catch (error) {
      notifyError(error, t('踢出成员失败'))
    } finally {
      if (memberId === userId) setBusy(team.id, false)
    }
  }

  const transfer = async () => {
    const member = candidates.find((m) => m.id === target)
    if (!member) return
    const ok = await confirmDialog({
      title: t('转让队长'),
      message: t('确定将队伍「{{name}}」的队长转让给 {{userName}} 吗？转让后你将失去管理权限。', { name: team.name, userName: member.userName }),
      confirmLabel: t('转让'),
      danger: true,
    })
    if (!ok) return
    setTransferring(true)
    try {
      upsertTeam(await teamApi.transfer(team.id, { newCaptainId: member.id }))
      notifySuccess(t('队长已转让给 {{userName}}', { userName: member.userName }))
    } catch (error) {
      notifyError(error, t('转让队长失败'))
    } finally {
      setTransferring(false)
    }
  }

  return (
    <Stack gap="xs">
      {members.map((member) => (
        <Group key={member.id} gap="xs" wrap="nowrap" data-testid="manage-member" data-user-id={member.id} data-user-name={member.userName}>
          <Avatar src={member.avatar ?? undefined} size={28} radius="xl" color="brand">
            {member.userName.slice(0, 1).toUpperCase()}
          </Avatar>
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" truncate>
              {member.userName}
            </Text>
            {member.bio && (
              <Text size="xs" c="dimmed" truncate>
                {member.bio}
              </Text>
            )}
          </Stack>
          {member.captain ? (
            <Badge size="sm" variant="light" leftSection={<IconCrown size={12} />}>
              {t('队长')}
            </Badge>
          ) : (
            <Tooltip label={t('踢出队伍')} withArrow>
              <ActionIcon variant="subtle" color="alert" onClick={() => void kick(member.id, member.userName)} aria-label={t('踢出 {{userName}}', { userName: member.userName })} data-testid="team-kick">
                <IconUserMinus size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      ))}
      <Group gap="xs" align="flex-end" wrap="nowrap" mt="xs">
        <Select
          label={t('转让队长')}
          placeholder={candidates.length ? t('选择一名队员') : t('队伍中没有其他成员')}
          data={candidates.map((m) => ({ value: m.id, label: m.userName }))}
          value={target}
          onChange={setTarget}
          disabled={candidates.length === 0}
          style={{ flex: 1 }}
          comboboxProps={{ withinPortal: true }}
          data-testid="team-transfer-select"
        />
        <Button variant="light" color="alert" disabled={!target} loading={transferring} onClick={() => void transfer()} data-testid="team-transfer-submit">
          {t('转让')}
        </Button>
      </Group>
    </Stack>
  )
}

export interface TeamManageModalProps {
  team: TeamInfoModel | null
  userId: string
  onClose: () => void
}

/**
 * The captain's view of one team: name/bio, avatar, invite code, members (kick, transfer the
 * captaincy) and deletion. It shows the live team from the list, and closes itself when the team
 * disappears or the user stops being its captain.
 */
export function TeamManageModal({ team, userId, onClose }: TeamManageModalProps) {
  const setBusy = useTeamsStore((state) => state.setBusy)
  const [deleting, setDeleting] = useState(false)

  const remove = async () => {
    if (!team) return
    const ok = await confirmDialog({
      title: t('解散队伍'),
      message: t('确定解散队伍「{{name}}」吗？所有成员将被移出，此操作不可恢复。', { name: team.name }),
      confirmLabel: t('解散'),
      danger: true,
    })
    if (!ok) return
    setDeleting(true)
    setBusy(team.id, true)
    try {
      await teamApi.remove(team.id)
      removeTeam(team.id)
      notifySuccess(t('队伍「{{name}}」已解散', { name: team.name }))
      onClose()
    } catch (error) {
      notifyError(error, t('解散队伍失败'))
    } finally {
      setDeleting(false)
      setBusy(team.id, false)
    }
  }

  return (
    <Modal opened={team !== null} onClose={onClose} title={team ? t('管理队伍 · {{name}}', { name: team.name }) : t('管理队伍')} size="lg" data-testid="team-manage-modal">
      {team && (
        <Stack gap="md">
          {team.locked && (
            <Alert color="alert" variant="light" icon={<IconLock size={16} />} title={t('队伍已锁定')}>
              {t('队伍正在参加比赛，比赛结束前无法变动成员或解散队伍。')}
            </Alert>
          )}
          <Group align="flex-start" gap="lg" wrap="nowrap">
            <AvatarUpload team={team} />
            <DetailsForm key={team.id} team={team} />
          </Group>
          {/* A locked team cannot take members: no invite code to hand out (it would only fail with 队伍已锁定). */}
          {!team.locked && (
            <>
              <Divider label={t('邀请码')} labelPosition="left" />
              <InviteCodeBox teamId={team.id} teamName={team.name} />
            </>
          )}
          <Divider label={t('成员')} labelPosition="left" />
          <Members team={team} userId={userId} />
          <Divider label={t('危险操作')} labelPosition="left" color="alert" />
          <Group justify="space-between">
            <Stack gap={0}>
              <Title order={6}>{t('解散队伍')}</Title>
              <Text size="xs" c="dimmed">
                {t('删除队伍及其比赛报名，无法恢复。')}
              </Text>
            </Stack>
            <Button color="alert" variant="light" leftSection={<IconTrash size={16} />} loading={deleting} onClick={() => void remove()} data-testid="team-delete">
              {t('解散队伍')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  )
}
