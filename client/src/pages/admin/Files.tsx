import { useState } from 'react'
import { ActionIcon, Anchor, Button, Center, Code, FileButton, Group, Loader, Stack, Table, Text, Title, Tooltip } from '@mantine/core'
import { IconChevronLeft, IconChevronRight, IconDownload, IconLink, IconTrash, IconUpload } from '@tabler/icons-react'
import type { ArrayResponse } from '@flagwave/shared/schemas/common'
import type { LocalFile } from '@flagwave/shared/schemas/admin'
import { adminApi, fileUrl } from '../../api/admin'
import { useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../api/queryKeys'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { copyToClipboard } from '../../components/CopyableText/CopyableText'
import { notifyError, notifySuccess } from '../../utils/notify'
import { LoadError } from '../../components/LoadError/LoadError'
import { RowAction } from '../../components/RowAction/RowAction'
import { t } from '../../i18n'

const PAGE_SIZE = 50

/**
 * admin/Files: stored files by name (GET /api/admin/files), with download links, upload
 * (POST /api/assets, multipart `files`) and delete (DELETE /api/assets/{hash}). The list's
 * `total` is the page length (docs/compatibility.md#group-admin), so paging is previous/next: a full page means
 * there may be more.
 */
export default function Files() {
  const [page, setPage] = useState(0)
  const [uploading, setUploading] = useState(false)
  const [busy, setBusy] = useState<Record<string, boolean>>({})
  const query = useQuery<ArrayResponse<LocalFile>>({ queryKey: queryKeys.admin.files(PAGE_SIZE, page * PAGE_SIZE), queryFn: () => adminApi.files.list(PAGE_SIZE, page * PAGE_SIZE) })
  const { data, error, isLoading } = query
  const files = data?.data ?? []

  const upload = async (selected: File[]) => {
    if (selected.length === 0) return
    setUploading(true)
    try {
      const stored = await adminApi.files.upload(selected)
      notifySuccess(stored.length === 1 ? t('已上传 {{name}}', { name: stored[0].name }) : t('已上传 {{length}} 个文件', { length: stored.length }))
      await query.refetch()
    } catch (cause) {
      notifyError(cause, t('上传失败'))
    } finally {
      setUploading(false)
    }
  }

  const remove = async (file: LocalFile) => {
    const ok = await confirmDialog({
      title: t('删除文件'),
      message: t('确定删除 {{name}} 吗？如果该文件被多处引用，只会减少一次引用。', { name: file.name }),
      confirmLabel: t('删除'),
      danger: true,
    })
    if (!ok) return
    setBusy((state) => ({ ...state, [file.hash]: true }))
    try {
      await adminApi.files.remove(file.hash)
      notifySuccess(t('已删除 {{name}}', { name: file.name }))
      await query.refetch()
    } catch (cause) {
      notifyError(cause, t('删除失败'))
    } finally {
      setBusy((state) => ({ ...state, [file.hash]: false }))
    }
  }

  const copyLink = async (file: LocalFile) => {
    const url = new URL(fileUrl(file), window.location.origin).toString()
    if (await copyToClipboard(url)) notifySuccess(t('下载链接已复制'))
    else notifyError(new Error(t('复制失败')))
  }

  return (
    <Stack gap="md" data-testid="admin-files-page">
      <Group justify="space-between">
        <Title order={2}>{t('文件管理')}</Title>
        <FileButton onChange={(selected) => void upload(selected)} multiple inputProps={{ 'data-testid': 'admin-file-input' }}>
          {(props) => (
            <Button {...props} leftSection={<IconUpload size={16} />} loading={uploading} data-testid="admin-file-upload">
              {t('上传文件')}
            </Button>
          )}
        </FileButton>
      </Group>
      <LoadError error={error} />
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : files.length > 0 ? (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="xs" data-testid="admin-file-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('文件名')}</Table.Th>
                <Table.Th translate="no">SHA-256</Table.Th>
                <Table.Th w={120} ta="right">
                  {t('操作')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.map((file) => (
                <Table.Tr key={file.hash} data-testid="admin-file-row" data-hash={file.hash} data-name={file.name}>
                  <Table.Td>
                    <Anchor href={fileUrl(file)} download={file.name} size="sm" data-testid="admin-file-link">
                      {file.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={file.hash} withArrow>
                      <Code>{file.hash.slice(0, 16)}…</Code>
                    </Tooltip>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label={t('下载')} withArrow>
                        <ActionIcon component="a" href={fileUrl(file)} download={file.name} variant="subtle" aria-label={t('下载')}>
                          <IconDownload size={18} />
                        </ActionIcon>
                      </Tooltip>
                      <RowAction label={t('复制链接')} icon={<IconLink size={18} />} onClick={() => void copyLink(file)} testId="admin-file-copy" />
                      <RowAction label={t('删除')} icon={<IconTrash size={18} />} color="alert" loading={busy[file.hash]} onClick={() => void remove(file)} testId="admin-file-delete" />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed" ta="center" py="xl" data-testid="admin-files-empty">
          {page > 0 ? t('没有更多文件') : t('暂无文件')}
        </Text>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('第 {{page}} 页 · 本页 {{count}} 个文件', { page: page + 1, count: files.length })}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" leftSection={<IconChevronLeft size={14} />} disabled={page === 0} onClick={() => setPage((p) => p - 1)} data-testid="admin-files-prev">
            {t('上一页')}
          </Button>
          <Button
            size="xs"
            variant="default"
            rightSection={<IconChevronRight size={14} />}
            disabled={files.length < PAGE_SIZE}
            onClick={() => setPage((p) => p + 1)}
            data-testid="admin-files-next"
          >
            {t('下一页')}
          </Button>
        </Group>
      </Group>
    </Stack>
  )
}
