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
      notifySuccess(stored.length === 1 ? `已上传 ${stored[0].name}` : `已上传 ${stored.length} 个文件`)
      await query.refetch()
    } catch (cause) {
      notifyError(cause, '上传失败')
    } finally {
      setUploading(false)
    }
  }

  const remove = async (file: LocalFile) => {
    const ok = await confirmDialog({
      title: '删除文件',
      message: `确定删除 ${file.name} 吗？如果该文件被多处引用，只会减少一次引用。`,
      confirmLabel: '删除',
      danger: true,
    })
    if (!ok) return
    setBusy((state) => ({ ...state, [file.hash]: true }))
    try {
      await adminApi.files.remove(file.hash)
      notifySuccess(`已删除 ${file.name}`)
      await query.refetch()
    } catch (cause) {
      notifyError(cause, '删除失败')
    } finally {
      setBusy((state) => ({ ...state, [file.hash]: false }))
    }
  }

  const copyLink = async (file: LocalFile) => {
    const url = new URL(fileUrl(file), window.location.origin).toString()
    if (await copyToClipboard(url)) notifySuccess('下载链接已复制')
    else notifyError(new Error('复制失败'))
  }

  return (
    <Stack gap="md" data-testid="admin-files-page">
      <Group justify="space-between">
        <Title order={2}>文件管理</Title>
        <FileButton onChange={(selected) => void upload(selected)} multiple inputProps={{ 'data-testid': 'admin-file-input' } as never}>
          {(props) => (
            <Button {...props} leftSection={<IconUpload size={16} />} loading={uploading} data-testid="admin-file-upload">
              上传文件
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
                <Table.Th>文件名</Table.Th>
                <Table.Th>SHA-256</Table.Th>
                <Table.Th w={120} ta="right">
                  操作
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
                      <Tooltip label="下载" withArrow>
                        <ActionIcon component="a" href={fileUrl(file)} download={file.name} variant="subtle" aria-label="下载">
                          <IconDownload size={18} />
                        </ActionIcon>
                      </Tooltip>
                      <RowAction label="复制链接" icon={<IconLink size={18} />} onClick={() => void copyLink(file)} testId="admin-file-copy" />
                      <RowAction label="删除" icon={<IconTrash size={18} />} color="alert" loading={busy[file.hash]} onClick={() => void remove(file)} testId="admin-file-delete" />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed" ta="center" py="xl" data-testid="admin-files-empty">
          {page > 0 ? '没有更多文件' : '暂无文件'}
        </Text>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          第 {page + 1} 页 · 本页 {files.length} 个文件
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" leftSection={<IconChevronLeft size={14} />} disabled={page === 0} onClick={() => setPage((p) => p - 1)} data-testid="admin-files-prev">
            上一页
          </Button>
          <Button
            size="xs"
            variant="default"
            rightSection={<IconChevronRight size={14} />}
            disabled={files.length < PAGE_SIZE}
            onClick={() => setPage((p) => p + 1)}
            data-testid="admin-files-next"
          >
            下一页
          </Button>
        </Group>
      </Group>
    </Stack>
  )
}
