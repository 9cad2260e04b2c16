import { useEffect } from 'react'
import { Badge, Button, Grid, Group, Paper, ScrollArea, Stack, Switch, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useDebouncedValue } from '@mantine/hooks'
import { IconDeviceFloppy, IconPinned, IconTrash } from '@tabler/icons-react'
import { POST_TITLE_MAX } from '@flagwave/shared/limits'
import { PostEditModel } from '@flagwave/shared/schemas/posts'
import { zodErrors } from '../../utils/zodForm'
import { Markdown } from '../Markdown/Markdown'
import { t } from '../../i18n'

export interface PostEditValues {
  title: string
  summary: string
  content: string
  tags: string[]
  isPinned: boolean
}

export const EMPTY_POST: PostEditValues = { title: '', summary: '', content: '', tags: [], isPinned: false }

export interface PostEditorProps {
  /** The stored values (or EMPTY_POST for a new post); the form follows them while not dirty. */
  initial: PostEditValues
  saving?: boolean
  deleting?: boolean
  /** Resolves to false when saving failed (the form stays dirty). */
  onSubmit: (values: PostEditValues) => Promise<boolean>
  /** Absent for a new post. */
  onDelete?: () => void
}

/**
 * The post editor (Admin): title, summary and content (Markdown), tags and the pin, with a live
 * preview side by side rendered by the same sanitising Markdown component as the public pages.
 */
export function PostEditor({ initial, saving = false, deleting = false, onSubmit, onDelete }: PostEditorProps) {
  const form = useForm<PostEditValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: (values) => zodErrors(PostEditModel, values),
  })

  const serverValues = JSON.stringify(initial)
  useEffect(() => {
    if (!form.isDirty()) {
      const values = JSON.parse(serverValues) as PostEditValues
      form.setInitialValues(values)
      form.setValues(values)
    }
  }, [serverValues])

  const [preview] = useDebouncedValue(form.values, 150)

  const submit = form.onSubmit(async (values) => {
    const normalised = { ...values, title: values.title.trim(), tags: values.tags.map((t) => t.trim()).filter(Boolean) }
    if (await onSubmit(normalised)) form.resetDirty(normalised)
  })

  return (
    <form onSubmit={submit} noValidate data-testid="post-editor">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack gap="sm">
            <TextInput label={t('标题')} required description={t('不超过 {{POST_TITLE_MAX}} 个字符', { POST_TITLE_MAX })} data-testid="post-edit-title" {...form.getInputProps('title')} />
            <TagsInput label={t('标签')} placeholder={t('输入后回车添加')} clearable data-testid="post-edit-tags" {...form.getInputProps('tags')} />
            <Textarea
              label={t('摘要')}
              description={t('支持 Markdown，显示在文章列表中')}
              autosize
              minRows={3}
              maxRows={8}
              data-testid="post-edit-summary"
              {...form.getInputProps('summary')}
            />
            <Textarea
              label={t('正文')}
              description={t('支持 Markdown')}
              autosize
              minRows={14}
              maxRows={30}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              data-testid="post-edit-content"
              {...form.getInputProps('content')}
            />
            <Switch label={t('置顶文章')} data-testid="post-edit-pinned" {...form.getInputProps('isPinned', { type: 'checkbox' })} />
            <Group justify="space-between">
              {onDelete ? (
                <Button color="alert" variant="light" leftSection={<IconTrash size={16} />} loading={deleting} onClick={onDelete} data-testid="post-delete">
                  {t('删除文章')}
                </Button>
              ) : (
                <span />
              )}
              <Group gap="xs">
                <Button variant="default" disabled={!form.isDirty() || saving} onClick={() => form.reset()}>
                  {t('撤销修改')}
                </Button>
                <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={saving} data-testid="post-save">
                  {t('保存')}
                </Button>
              </Group>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper withBorder radius="md" p="lg" h="100%" data-testid="post-preview">
            <ScrollArea.Autosize mah="calc(100vh - 200px)" offsetScrollbars>
              <Stack gap="sm">
                <Group justify="space-between" wrap="nowrap">
                  <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                    {t('预览')}
                  </Text>
                  {preview.isPinned && (
                    <Badge size="sm" variant="light" leftSection={<IconPinned size={12} />}>
                      {t('置顶')}
                    </Badge>
                  )}
                </Group>
                <Title order={2}>{preview.title || t('（无标题）')}</Title>
                {preview.tags.length > 0 && (
                  <Group gap={6}>
                    {preview.tags.map((tag) => (
                      <Badge key={tag} size="sm" variant="outline">
                        {tag}
                      </Badge>
                    ))}
                  </Group>
                )}
                {preview.summary && (
                  <Paper withBorder radius="sm" p="sm" bg="var(--mantine-color-default-hover)">
                    <Markdown source={preview.summary} testId="post-preview-summary" />
                  </Paper>
                )}
                <Markdown source={preview.content || t('*（正文为空）*')} testId="post-preview-content" />
              </Stack>
            </ScrollArea.Autosize>
          </Paper>
        </Grid.Col>
      </Grid>
    </form>
  )
}
