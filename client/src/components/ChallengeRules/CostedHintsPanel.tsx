/**
 * The editor's costed hints of a challenge (docs/challenge-rules.md#costed-hints): content, cost
 * kind (fixed points or a percentage of the challenge's value when unlocked) and amount, saved
 * as a whole list. Hints keep their ids, so teams that paid for one keep it.
 */
import { useEffect, useState } from 'react'
import { ActionIcon, Button, Card, Group, NumberInput, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core'
import { IconDeviceFloppy, IconPlus, IconTrash } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { CostedHint, HintCostKind } from '@flagwave/shared/schemas/challengeRules'
import { editApi } from '../../api/edit'
import { DateTimeField } from '../DateTimeField/DateTimeField'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

interface Row {
  id: number | null
  content: string
  kind: HintCostKind
  amount: number | string
  freeAt: string | null
}

const rowsOf = (hints: CostedHint[]): Row[] => hints.map((h) => ({ ...h, freeAt: h.freeAt ?? null }))

export function CostedHintsPanel({ gameId, challengeId }: { gameId: number; challengeId: number }) {
  const key = queryKeys.edit.challengeHints(gameId, challengeId)
  const { data } = useQuery({ queryKey: key, queryFn: () => editApi.challenges.hints(gameId, challengeId) })
  const [rows, setRows] = useState<Row[] | null>(null)
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    if (data && rows === null) setRows(rowsOf(data))
  }, [data, rows])
  const list = rows ?? []
  const change = (index: number, patch: Partial<Row>) => setRows(list.map((r, i) => (i === index ? { ...r, ...patch } : r)))

  const save = async () => {
    setSaving(true)
    try {
      const saved = await editApi.challenges.setHints(gameId, challengeId, {
        hints: list.map((r) => ({ id: r.id, content: r.content, kind: r.kind, amount: Number(r.amount), freeAt: r.freeAt })),
      })
      queryClient.setQueryData(key, saved)
      setRows(rowsOf(saved))
      notifySuccess(t('付费提示已保存'))
    } catch (error) {
      notifyError(error, t('保存失败'))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Card withBorder radius="md" padding="sm" data-testid="costed-hints-editor">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={5}>{t('付费提示')}</Title>
          <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={() => setRows([...list, { id: null, content: '', kind: 'Fixed', amount: 50, freeAt: null }])} data-testid="costed-hint-add">
            {t('添加付费提示')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {t('队伍确认后解锁，扣分在解锁时确定，无论之后是否解出都会扣除。设置免费时间后，到时所有队伍免费可见。')}
        </Text>
        {list.map((row, i) => (
          <Stack key={row.id ?? `new-${i}`} gap={6} data-testid="costed-hint-row">
            <Textarea autosize minRows={2} placeholder={t('提示内容（支持 Markdown）')} value={row.content} onChange={(e) => change(i, { content: e.currentTarget.value })} data-testid="costed-hint-content-input" />
            <Group gap="xs" wrap="nowrap">
              <SegmentedControl
                size="xs"
                value={row.kind}
                onChange={(v) => change(i, { kind: v as HintCostKind })}
                data={[
                  { value: 'Fixed', label: t('固定分值') },
                  { value: 'Percent', label: t('分值百分比') },
                ]}
                data-testid="costed-hint-kind"
              />
              <NumberInput
                size="xs"
                min={1}
                max={row.kind === 'Percent' ? 100 : 100000}
                allowDecimal={false}
                allowNegative={false}
                suffix={row.kind === 'Percent' ? '%' : undefined}
                value={row.amount}
                onChange={(v) => change(i, { amount: v })}
                aria-label={t('扣分')}
                style={{ flex: 1 }}
                data-testid="costed-hint-amount"
              />
              <ActionIcon variant="subtle" color="alert" aria-label={t('删除提示')} onClick={() => setRows(list.filter((_, j) => j !== i))}>
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            <DateTimeField size="xs" clearable placeholder={t('免费时间（可选）')} value={row.freeAt} onChange={(freeAt) => change(i, { freeAt })} testId="costed-hint-free-at-input" />
          </Stack>
        ))}
        <Group justify="flex-end">
          <Button size="xs" leftSection={<IconDeviceFloppy size={14} />} loading={saving} disabled={rows === null} onClick={() => void save()} data-testid="costed-hints-save">
            {t('保存付费提示')}
          </Button>
        </Group>
      </Stack>
    </Card>
  )
}
