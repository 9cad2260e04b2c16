/**
 * A challenge's flags (docs/compatibility.md#group-edit).
 * - Static types: the flag list; several flags are added at once (one per line).
 * - Dynamic attachments: every flag comes with its own file; files are uploaded through
 *   POST /api/assets and the flags added with `attachmentType: Local` and the file's hash.
 * - Dynamic containers: flags are generated per team from the template (editor screen).
 * Deleting a flag shows the server's TaskStatus answer (`Success` / `NotFound`); removing the
 * last flag disables the challenge.
 */
import { useState } from 'react'
import { ActionIcon, Alert, Anchor, Button, Card, Code, FileButton, Group, Stack, Table, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core'
import { IconFilePlus, IconInfoCircle, IconPlus, IconTrash, IconUpload, IconX } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import { FLAG_MAX } from '@flagwave/shared/limits'
import { FlagCreateModel, type ChallengeEditDetailModel, type FlagInfoModel } from '@flagwave/shared/schemas/challenges'
import { queryClient } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { editApi, invalidateEdit, type FlagCreateRequest } from '../../../api/edit'
import { AttachmentLink, formatBytes } from '../../../components/ChallengeAttachment/ChallengeAttachment'
import { ChallengeHeader, useEditChallenge } from '../../../components/ChallengeForm/ChallengeHeader'
import { confirmDialog } from '../../../components/ConfirmDialog/confirm'
import { DirtyFormGuard } from '../../../components/DirtyFormGuard/DirtyFormGuard'
import { notifyError, notifySuccess } from '../../../utils/notify'
import { zodErrors } from '../../../utils/zodForm'
import { EditChallengeScreen } from '../../../components/ChallengeForm/EditChallengeScreen'
import { formatList, t } from '../../../i18n'

/** The first validation message of a flag text (the shared FlagCreateModel rules). */
const flagError = (flag: string): string | null => zodErrors(FlagCreateModel, { flag }).flag ?? null

/** Distinct non-blank lines. */
function parseFlagLines(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))]
}

function FlagTable({ challenge, onDelete }: { challenge: ChallengeEditDetailModel; onDelete: (flag: FlagInfoModel) => void }) {
  const withAttachments = challenge.type === 'DynamicAttachment'
  if (challenge.flags.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="md" data-testid="flags-empty">
        {t('暂无 flag')}
      </Text>
    )
  }
  return (
    <Table highlightOnHover verticalSpacing="xs" data-testid="flag-list">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('答案')}</Table.Th>
          {withAttachments && <Table.Th>{t('附件')}</Table.Th>}
          <Table.Th w={60} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {challenge.flags.map((flag) => (
          <Table.Tr key={flag.id} data-testid="flag-item" data-flag-id={flag.id}>
            <Table.Td>
              <Code style={{ overflowWrap: 'anywhere' }} data-testid="flag-text">
                {flag.flag}
              </Code>
            </Table.Td>
            {withAttachments && (
              <Table.Td>
                <AttachmentLink attachment={flag.attachment} testId="flag-attachment" />
              </Table.Td>
            )}
            <Table.Td>
              <Tooltip label={t('删除 flag')} withArrow>
                <ActionIcon variant="subtle" color="alert" onClick={() => onDelete(flag)} aria-label={t('删除 flag')} data-testid="flag-delete">
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** Static flags: one per line. */
function StaticFlagsForm({ onSubmit }: { onSubmit: (flags: FlagCreateRequest[]) => Promise<boolean> }) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    const flags = parseFlagLines(text)
    if (flags.length === 0) {
      setError(t('请输入至少一个 flag'))
      return
    }
    const invalid = flags.map(flagError).find(Boolean)
    if (invalid) {
      setError(invalid)
      return
    }
    setError(null)
    setBusy(true)
    if (await onSubmit(flags.map((flag) => ({ flag })))) setText('')
    setBusy(false)
  }
  return (
    <Stack gap="sm">
      <DirtyFormGuard when={text.trim() !== ''} />
      <Textarea
        label={t('添加 flag')}
        description={t('每行一个 flag，可一次添加多个；选手提交任意一个均判定为正确（至多 {{FLAG_MAX}} 个字符）', { FLAG_MAX })}
        placeholder={'flag{first}\nflag{second}'}
        autosize
        minRows={3}
        maxRows={12}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        error={error}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        data-testid="flags-new"
      />
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {parseFlagLines(text).length} {t('个待添加')}
        </Text>
        <Button leftSection={<IconPlus size={16} />} loading={busy} onClick={() => void submit()} data-testid="flags-add">
          {t('添加')}
        </Button>
      </Group>
    </Stack>
  )
}

interface UploadRow {
  file: File
  flag: string
}

/** Dynamic attachments: a file and its flag per row. */
function DynamicFlagsForm({ onSubmit }: { onSubmit: (flags: FlagCreateRequest[]) => Promise<boolean> }) {
  const [rows, setRows] = useState<UploadRow[]>([])
  const [errors, setErrors] = useState<Record<number, string>>({})
  const [busy, setBusy] = useState(false)

  const addFiles = (files: File[]) => {
    const empty = files.filter((file) => file.size === 0)
    if (empty.length) notifyError(new Error(t('已忽略空文件：{{v0}}', { v0: formatList(empty.map((f) => f.name)) })))
    setRows((current) => [...current, ...files.filter((file) => file.size > 0).map((file) => ({ file, flag: '' }))])
  }

  const submit = async () => {
    const next: Record<number, string> = {}
    rows.forEach((row, index) => {
      const message = flagError(row.flag.trim())
      if (message) next[index] = message
    })
    setErrors(next)
    if (rows.length === 0 || Object.keys(next).length > 0) return
    setBusy(true)
    try {
      const stored = await editApi.uploadAssets(rows.map((row) => row.file))
      if (stored.length !== rows.length) throw new Error(t('文件上传失败：服务器返回的文件数量不一致'))
      const ok = await onSubmit(rows.map((row, index) => ({ flag: row.flag.trim(), attachmentType: 'Local', fileHash: stored[index]!.hash })))
      if (ok) setRows([])
    } catch (error) {
      notifyError(error, t('附件上传失败'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack gap="sm">
      <DirtyFormGuard when={rows.length > 0} />
      <Group justify="space-between">
        <div>
          <Text size="sm" fw={500}>
            {t('添加附件与 flag')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('每个附件对应一个 flag，每支队伍将被随机分配其中一组。')}
          </Text>
        </div>
        <FileButton multiple onChange={addFiles} inputProps={{ 'data-testid': 'flag-files-input' }}>
          {(props) => (
            <Button {...props} variant="light" leftSection={<IconFilePlus size={16} />} data-testid="flag-files-pick">
              {t('选择附件')}
            </Button>
          )}
        </FileButton>
      </Group>
      {rows.map((row, index) => (
        <Group key={`${row.file.name}-${index}`} gap="xs" wrap="nowrap" align="flex-start" data-testid="flag-upload-row">
          <Stack gap={0} w={220} style={{ flexShrink: 0 }}>
            <Text size="sm" lineClamp={1} title={row.file.name}>
              {row.file.name}
            </Text>
            <Text size="xs" c="dimmed">
              {formatBytes(row.file.size)}
            </Text>
          </Stack>
          <TextInput
            style={{ flex: 1 }}
            placeholder={t('该附件对应的 flag')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={row.flag}
            error={errors[index]}
            onChange={(event) => {
              const value = event.currentTarget.value
              setRows((current) => current.map((r, i) => (i === index ? { ...r, flag: value } : r)))
            }}
            data-testid="flag-upload-flag"
          />
          <ActionIcon variant="subtle" color="alert" mt={6} onClick={() => setRows((current) => current.filter((_, i) => i !== index))} aria-label={t('移除')} data-testid="flag-upload-remove">
            <IconX size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group justify="flex-end">
        <Button leftSection={<IconUpload size={16} />} loading={busy} disabled={rows.length === 0} onClick={() => void submit()} data-testid="flag-upload-submit">
          {t('上传并添加（{{count}}）', { count: rows.length })}
        </Button>
      </Group>
    </Stack>
  )
}

function FlagsEditor({ gameId, challenge }: { gameId: number; challenge: ChallengeEditDetailModel }) {
  const key = queryKeys.edit.challenge(gameId, challenge.id)
  const { refetch: revalidate } = useEditChallenge(gameId, challenge.id)
  const refresh = async () => {
    await revalidate()
    invalidateEdit(queryKeys.edit.challenges(gameId))
  }

  const add = async (flags: FlagCreateRequest[]): Promise<boolean> => {
    try {
      await editApi.challenges.addFlags(gameId, challenge.id, flags)
      notifySuccess(t('已添加 {{length}} 个 flag', { length: flags.length }))
      await refresh()
      return true
    } catch (error) {
      notifyError(error, t('添加 flag 失败'))
      return false
    }
  }

  const remove = async (flag: FlagInfoModel) => {
    const last = challenge.flags.length === 1 && challenge.type !== 'DynamicContainer'
    const confirmed = await confirmDialog({
      title: t('删除 flag'),
      message: (
        <Stack gap={6}>
          <Text size="sm">
            {t('确定要删除 flag')} <Code>{flag.flag}</Code> {t('吗？')}
          </Text>
          {last && challenge.isEnabled && (
            <Text size="sm" c="alert">
              {t('这是最后一个 flag，删除后题目将被禁用。')}
            </Text>
          )}
        </Stack>
      ),
      danger: true,
    })
    if (!confirmed) return
    try {
      const status = await editApi.challenges.removeFlag(gameId, challenge.id, flag.id)
      if (status === 'Success') notifySuccess(t('flag 已删除（Success）'))
      else notifyError(new Error(t('flag 未找到（{{status}}）', { status })), t('删除 flag 失败'))
      await refresh()
    } catch (error) {
      notifyError(error, t('删除 flag 失败'))
    }
  }

  return (
    <Stack gap="md" data-testid="flags-editor" data-type={challenge.type}>
      <ChallengeHeader gameId={gameId} challenge={challenge} current="flags" onUpdated={(detail) => queryClient.setQueryData(key, detail)} />
      {challenge.type === 'DynamicContainer' && (
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={16} />} data-testid="flags-dynamic-container">
          {t('动态容器题目的 flag 由 flag 模板为每支队伍生成，并通过环境变量 GZCTF_FLAG 传入容器，无需在此添加。可在')}
          <Anchor component={Link} to={`/admin/games/${gameId}/challenges/${challenge.id}`} mx={4}>
            {t('题目编辑')}
          </Anchor>
          {t('中设置 flag 模板。')}
        </Alert>
      )}
      {challenge.type !== 'DynamicContainer' && (
        <Card withBorder radius="md" padding="md">
          {challenge.type === 'DynamicAttachment' ? <DynamicFlagsForm onSubmit={add} /> : <StaticFlagsForm onSubmit={add} />}
        </Card>
      )}
      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" mb="xs">
          <Title order={5}>{t('已有 flag')}</Title>
          <Text size="sm" c="dimmed" data-testid="flag-count">
            {t('共 {{count}} 个', { count: challenge.flags.length })}
          </Text>
        </Group>
        <FlagTable challenge={challenge} onDelete={(flag) => void remove(flag)} />
      </Card>
    </Stack>
  )
}

export default function Flags() {
  return (
    <EditChallengeScreen testId="admin-challenge-flags-page" skeletonHeight={200}>
      {(gameId, challenge) => <FlagsEditor gameId={gameId} challenge={challenge} />}
    </EditChallengeScreen>
  )
}
