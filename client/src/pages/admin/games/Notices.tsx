/**
 * Game notices (docs/compatibility.md#group-edit): the game's Normal notices (GET), posting a new one
 * (POST, pushed to players), editing (PUT, time becomes now, not pushed) and deleting (DELETE,
 * confirmed). Content is Markdown, previewed with the shared renderer.
 */
import { useState } from 'react'
import { ActionIcon, Button, Card, Group, Modal, Skeleton, Stack, Text, Tooltip } from '@mantine/core'
import { IconEdit, IconSend, IconTrash } from '@tabler/icons-react'
import { GameNoticeModel, type GameNotice } from '@flagwave/shared/schemas/games'
import { editApi } from '../../../api/edit'
import { skipToken, useQuery } from '@tanstack/react-query'
import { queryClient } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { confirmDialog } from '../../../components/ConfirmDialog/confirm'
import { DirtyFormGuard } from '../../../components/DirtyFormGuard/DirtyFormGuard'
import { formatTime } from '../../../components/GameTime/GameTime'
import { GameEditFrame, useEditGameId } from '../../../components/GameEditFrame/GameEditFrame'
import { Markdown } from '../../../components/Markdown/Markdown'
import { MarkdownEditor } from '../../../components/MarkdownEditor/MarkdownEditor'
import { notifyError, notifySuccess } from '../../../utils/notify'
import { zodErrors } from '../../../utils/zodForm'
import { LoadError } from '../../../components/LoadError/LoadError'
import { useAction } from '../../../hooks/useAction'
import { t } from '../../../i18n'
import { ModalFooter } from '../../../components/ModalFooter/ModalFooter'

const contentError = (content: string): string | null => zodErrors(GameNoticeModel, { content }).content ?? null

/** Newest first (the endpoint has no explicit order). */
const byTime = (a: GameNotice, b: GameNotice) => Date.parse(b.time) - Date.parse(a.time) || b.id - a.id

function EditNoticeModal({ gameId, notice, onClose, onSaved }: { gameId: number; notice: GameNotice | null; onClose: () => void; onSaved: (notice: GameNotice) => void }) {
  const [content, setContent] = useState(notice?.content ?? '')
  const [error, setError] = useState<string | null>(null)
  const { busy, run } = useAction()
  const save = async () => {
    if (!notice) return
    const invalid = contentError(content)
    setError(invalid)
    if (invalid) return
    await run(t('更新通知失败'), async () => {
      onSaved(await editApi.notices.update(gameId, notice.id, { content }))
      notifySuccess(t('通知已更新'))
    })
  }
  return (
    <Modal opened={notice !== null} onClose={onClose} title={t('编辑通知')} size="xl" data-testid="notice-edit-modal">
      <Stack gap="sm">
        <MarkdownEditor value={content} onChange={setContent} error={error} layout="split" minRows={8} testId="notice-edit-content" />
        <Text size="xs" c="dimmed">
          {t('编辑后的通知不会再次推送，发布时间将更新为当前时间。')}
        </Text>
        <ModalFooter onCancel={onClose} confirmLabel={t('保存')} onConfirm={() => void save()} loading={busy} confirmTestId="notice-edit-save" />
      </Stack>
    </Modal>
  )
}

export default function Notices() {
  const gameId = useEditGameId()
  const queryKey = queryKeys.edit.notices(gameId ?? 0)
  const { data, error, isLoading } = useQuery({ queryKey, queryFn: gameId === null ? skipToken : () => editApi.notices.list(gameId) })
  const mutate = (update: (current: GameNotice[] | undefined) => GameNotice[]) => queryClient.setQueryData(queryKey, update)
  const [draft, setDraft] = useState('')
  const [draftError, setDraftError] = useState<string | null>(null)
  const [posting, setPosting] = useState(false)
  const [editing, setEditing] = useState<GameNotice | null>(null)

  const post = async () => {
    if (gameId === null) return
    const invalid = contentError(draft)
    setDraftError(invalid)
    if (invalid) return
    setPosting(true)
    try {
      const notice = await editApi.notices.create(gameId, { content: draft })
      await mutate((current) => [notice, ...(current ?? []).filter((n) => n.id !== notice.id)])
      setDraft('')
      notifySuccess(t('通知已发布'))
    } catch (err) {
      notifyError(err, t('发布通知失败'))
    } finally {
      setPosting(false)
    }
  }

  const remove = async (notice: GameNotice) => {
    if (gameId === null) return
    const confirmed = await confirmDialog({ title: t('删除通知'), message: t('确定要删除这条通知吗？'), danger: true })
    if (!confirmed) return
    try {
      await editApi.notices.remove(gameId, notice.id)
      await mutate((current) => (current ?? []).filter((n) => n.id !== notice.id))
      notifySuccess(t('通知已删除'))
    } catch (err) {
      notifyError(err, t('删除通知失败'))
    }
  }

  const notices = data ? [...data].sort(byTime) : []
  return (
    <GameEditFrame testId="admin-game-notices-page">
      <DirtyFormGuard when={draft.trim() !== ''} />
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <MarkdownEditor
            label={t('发布新通知')}
            description={t('通知将实时推送给比赛中的所有队伍，支持 Markdown')}
            value={draft}
            onChange={(value) => {
              setDraft(value)
              if (draftError) setDraftError(null)
            }}
            error={draftError}
            layout="split"
            minRows={4}
            testId="notice-new-content"
          />
          <Group justify="flex-end">
            <Button leftSection={<IconSend size={16} />} loading={posting} onClick={() => void post()} data-testid="notice-post">
              {t('发布通知')}
            </Button>
          </Group>
        </Stack>
      </Card>

      {!data && <LoadError error={error} />}
      {isLoading && !data ? (
        <Skeleton height={80} />
      ) : data && notices.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="notices-empty">
          {t('暂无通知')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="notice-list">
          {notices.map((notice) => (
            <Card key={notice.id} withBorder radius="md" padding="sm" data-testid="notice-item" data-notice-id={notice.id}>
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Markdown source={notice.content} testId="notice-content" />
                  <Text size="xs" c="dimmed" mt={6}>
                    {formatTime(notice.time, 'YYYY-MM-DD HH:mm:ss')}
                  </Text>
                </div>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('编辑')} withArrow>
                    <ActionIcon variant="subtle" onClick={() => setEditing(notice)} aria-label={t('编辑')} data-testid="notice-edit">
                      <IconEdit size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('删除')} withArrow>
                    <ActionIcon variant="subtle" color="alert" onClick={() => void remove(notice)} aria-label={t('删除')} data-testid="notice-delete">
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {gameId !== null && (
        <EditNoticeModal
          key={editing?.id ?? 0}
          gameId={gameId}
          notice={editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            void mutate((current) => (current ?? []).map((n) => (n.id === saved.id ? saved : n)))
            setEditing(null)
          }}
        />
      )}
    </GameEditFrame>
  )
}
