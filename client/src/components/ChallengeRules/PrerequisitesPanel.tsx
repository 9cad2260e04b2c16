/**
 * The editor's prerequisites of a challenge (docs/challenge-rules.md#prerequisites): the game's
 * challenges a team must solve first, and whether the board shows a locked challenge's title.
 * The server refuses cycles; its message is shown as it comes.
 */
import { useEffect, useState } from 'react'
import { Button, Card, Group, MultiSelect, Stack, Switch, Text, Title } from '@mantine/core'
import { IconDeviceFloppy } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { editApi } from '../../api/edit'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

export function PrerequisitesPanel({ gameId, challengeId }: { gameId: number; challengeId: number }) {
  const key = queryKeys.edit.challengePrerequisites(gameId, challengeId)
  const { data } = useQuery({ queryKey: key, queryFn: () => editApi.challenges.prerequisites(gameId, challengeId) })
  const { data: challenges } = useQuery({ queryKey: queryKeys.edit.challenges(gameId), queryFn: () => editApi.challenges.list(gameId) })
  const [selected, setSelected] = useState<string[] | null>(null)
  const [titleVisible, setTitleVisible] = useState(true)
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    if (data && selected === null) {
      setSelected(data.prerequisites.map(String))
      setTitleVisible(data.lockedTitleVisible)
    }
  }, [data, selected])

  const save = async () => {
    setSaving(true)
    try {
      const saved = await editApi.challenges.setPrerequisites(gameId, challengeId, { prerequisites: (selected ?? []).map(Number), lockedTitleVisible: titleVisible })
      queryClient.setQueryData(key, saved)
      notifySuccess(t('前置题目已保存'))
    } catch (error) {
      notifyError(error, t('保存失败'))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Card withBorder radius="md" padding="sm" data-testid="prerequisites-editor">
      <Stack gap="sm">
        <Title order={5}>{t('前置题目')}</Title>
        <Text size="xs" c="dimmed">
          {t('队伍解出所有前置题目后才能查看和提交本题。')}
        </Text>
        <MultiSelect
          searchable
          placeholder={t('选择前置题目')}
          data={(challenges ?? []).filter((c) => c.id !== challengeId).map((c) => ({ value: String(c.id), label: c.title }))}
          value={selected ?? []}
          onChange={setSelected}
          data-testid="prerequisites-select"
        />
        <Switch label={t('锁定时显示题目标题')} checked={titleVisible} onChange={(e) => setTitleVisible(e.currentTarget.checked)} data-testid="prerequisites-title-visible" />
        <Group justify="flex-end">
          <Button size="xs" leftSection={<IconDeviceFloppy size={14} />} loading={saving} disabled={selected === null} onClick={() => void save()} data-testid="prerequisites-save">
            {t('保存前置题目')}
          </Button>
        </Group>
      </Stack>
    </Card>
  )
}
