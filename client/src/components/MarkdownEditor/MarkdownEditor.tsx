/**
 * A Markdown text area with a live preview through the shared sanitising `Markdown` renderer:
 * `layout="split"` shows editor and preview side by side (stacked on small screens),
 * `layout="tabs"` switches between 编辑 and 预览.
 */
import { useState, type ReactNode } from 'react'
import { Box, Grid, Input, Paper, ScrollArea, SegmentedControl, Stack, Text, Textarea } from '@mantine/core'
import { Markdown } from '../Markdown/Markdown'
import { t } from '../../i18n'

export interface MarkdownEditorProps {
  value: string
  onChange: (value: string) => void
  label?: ReactNode
  description?: ReactNode
  placeholder?: string
  error?: ReactNode
  layout?: 'split' | 'tabs'
  minRows?: number
  /** Height of the preview pane in split layout (px). */
  previewHeight?: number
  testId?: string
}

function Preview({ value, height, testId }: { value: string; height?: number; testId?: string }) {
  return (
    <Paper withBorder radius="sm" p="sm" h={height} style={{ overflow: 'hidden' }}>
      <ScrollArea h={height ? height - 24 : undefined} type="auto">
        {value.trim() ? (
          <Markdown source={value} testId={testId} />
        ) : (
          <Text size="sm" c="dimmed" data-testid={testId}>
            {t('预览区域')}
          </Text>
        )}
      </ScrollArea>
    </Paper>
  )
}

export function MarkdownEditor({
  value,
  onChange,
  label,
  description,
  placeholder,
  error,
  layout = 'tabs',
  minRows = 8,
  previewHeight,
  testId,
}: MarkdownEditorProps) {
  const [mode, setMode] = useState<'edit' | 'preview'>('edit')
  const height = previewHeight ?? Math.max(200, minRows * 24 + 16)
  const textarea = (
    <Textarea
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      placeholder={placeholder}
      error={error}
      autosize={layout === 'tabs'}
      minRows={minRows}
      rows={layout === 'split' ? minRows : undefined}
      styles={layout === 'split' ? { input: { height, fontFamily: 'var(--mantine-font-family-monospace)' } } : { input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      data-testid={testId}
    />
  )

  if (layout === 'split') {
    return (
      <Input.Wrapper label={label} description={description}>
        <Grid gap="sm" mt={label || description ? 4 : 0}>
          <Grid.Col span={{ base: 12, md: 6 }}>{textarea}</Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Preview value={value} height={height} testId={testId ? `${testId}-preview` : undefined} />
          </Grid.Col>
        </Grid>
      </Input.Wrapper>
    )
  }

  return (
    <Input.Wrapper label={label} description={description}>
      <Stack gap={6} mt={label || description ? 4 : 0}>
        <Box>
          <SegmentedControl
            size="xs"
            value={mode}
            onChange={(next) => setMode(next as 'edit' | 'preview')}
            data={[
              { value: 'edit', label: t('编辑') },
              { value: 'preview', label: t('预览') },
            ]}
            data-testid={testId ? `${testId}-mode` : undefined}
          />
        </Box>
        {mode === 'edit' ? textarea : <Preview value={value} testId={testId ? `${testId}-preview` : undefined} />}
      </Stack>
    </Input.Wrapper>
  )
}

