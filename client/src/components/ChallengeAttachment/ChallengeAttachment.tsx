/**
 * The challenge-wide attachment (docs/compatibility.md#group-edit) of non-dynamic-attachment challenges:
 * None (remove), Local (upload through POST /api/assets, then attach by hash) or Remote (a URL
 * stored verbatim). Each action is applied at once; `onChanged` refetches the challenge.
 */
import { useEffect, useState } from 'react'
import { Anchor, Button, FileButton, Group, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { IconLink, IconPaperclip, IconTrash, IconUpload } from '@tabler/icons-react'
import type { FileType } from '@flagwave/shared/enums'
import type { Attachment } from '@flagwave/shared/schemas/challenges'
import { editApi } from '../../api/edit'
import { notifySuccess } from '../../utils/notify'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'

/** A byte count as B / KiB / MiB / GiB. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—'
  const units = ['B', 'KiB', 'MiB', 'GiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}

/** A link to an attachment with its size, or a dash. */
export function AttachmentLink({ attachment, testId }: { attachment: Attachment | null; testId?: string }) {
  if (!attachment) {
    return (
      <Text size="sm" c="dimmed" data-testid={testId} data-type="None">
        {t('无附件')}
      </Text>
    )
  }
  if (!attachment.url) {
    return (
      <Text size="sm" c="alert" data-testid={testId} data-type={attachment.type}>
        {t('文件已丢失')}
      </Text>
    )
  }
  const name = attachment.type === 'Local' ? decodeURIComponent(attachment.url.split('/').pop() ?? attachment.url) : attachment.url
  return (
    <Group gap={6} wrap="nowrap" data-testid={testId} data-type={attachment.type}>
      {attachment.type === 'Local' ? <IconPaperclip size={14} /> : <IconLink size={14} />}
      <Anchor href={attachment.url} target="_blank" rel="noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
        {name}
      </Anchor>
      {attachment.type === 'Local' && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatBytes(attachment.fileSize)}
        </Text>
      )}
    </Group>
  )
}

export interface ChallengeAttachmentProps {
  gameId: number
  challengeId: number
  attachment: Attachment | null
  onChanged: () => void
}

export function ChallengeAttachment({ gameId, challengeId, attachment, onChanged }: ChallengeAttachmentProps) {
  const current: FileType = attachment?.type ?? 'None'
  const [mode, setMode] = useState<FileType>(current)
  const [remoteUrl, setRemoteUrl] = useState(attachment?.type === 'Remote' ? (attachment.url ?? '') : '')
  const { busy, run } = useAction()

  useEffect(() => {
    setMode(current)
    if (attachment?.type === 'Remote') setRemoteUrl(attachment.url ?? '')
  }, [current, attachment?.url, attachment?.type])

  const apply = async (action: () => Promise<unknown>, success: string) => {
    await run(t('附件更新失败'), async () => {
      await action()
      notifySuccess(success)
      onChanged()
    })
  }

  const upload = (file: File | null) => {
    if (!file) return
    void apply(async () => {
      const [stored] = await editApi.uploadAssets([file])
      if (!stored) throw new Error(t('文件上传失败'))
      await editApi.challenges.attachment(gameId, challengeId, { attachmentType: 'Local', fileHash: stored.hash })
    }, t('附件已上传'))
  }

  return (
    <Paper withBorder radius="md" p="sm" data-testid="challenge-attachment">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text fw={600} size="sm">
            {t('题目附件')}
          </Text>
          <AttachmentLink attachment={attachment} testId="challenge-attachment-current" />
        </Group>
        <SegmentedControl
          size="xs"
          value={mode}
          onChange={(value) => setMode(value as FileType)}
          data={[
            { value: 'None', label: t('无附件') },
            { value: 'Local', label: t('平台附件') },
            { value: 'Remote', label: t('远程附件') },
          ]}
          data-testid="challenge-attachment-type"
        />
        {mode === 'None' && (
          <Group justify="flex-end">
            <Button
              size="xs"
              color="alert"
              variant="light"
              leftSection={<IconTrash size={14} />}
              disabled={!attachment}
              loading={busy}
              onClick={() => void apply(() => editApi.challenges.attachment(gameId, challengeId, { attachmentType: 'None' }), t('附件已移除'))}
              data-testid="challenge-attachment-remove"
            >
              {t('移除附件')}
            </Button>
          </Group>
        )}
        {mode === 'Local' && (
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {t('上传后立即替换当前附件')}
            </Text>
            <FileButton onChange={upload} inputProps={{ 'data-testid': 'challenge-attachment-file' }}>
              {(props) => (
                <Button {...props} size="xs" leftSection={<IconUpload size={14} />} loading={busy} data-testid="challenge-attachment-upload">
                  {t('上传文件')}
                </Button>
              )}
            </FileButton>
          </Group>
        )}
        {mode === 'Remote' && (
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              placeholder="https://example.com/attachment.zip"
              value={remoteUrl}
              onChange={(event) => setRemoteUrl(event.currentTarget.value)}
              data-testid="challenge-attachment-url"
            />
            <Button
              size="sm"
              loading={busy}
              disabled={!remoteUrl.trim()}
              onClick={() => void apply(() => editApi.challenges.attachment(gameId, challengeId, { attachmentType: 'Remote', remoteUrl: remoteUrl.trim() }), t('附件已更新'))}
              data-testid="challenge-attachment-save-url"
            >
              {t('保存')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  )
}

