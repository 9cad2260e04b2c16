import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { teamApi } from '../../api/teams'
import { refetchIfShown } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { notifySuccess } from '../../utils/notify'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'

/** POST /api/team/accept with the invite code as a bare JSON string body (docs/compatibility.md#group-team). */
export function JoinTeamModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { busy, run } = useAction()
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: { code: (value) => (value.trim() === '' ? t('请输入邀请码') : null) },
  })

  const submit = form.onSubmit(async ({ code }) => {
    await run(t('加入队伍失败'), async () => {
      await teamApi.accept(code.trim())
      // The push adds the team as well; the refetch covers a missed push.
      void refetchIfShown(queryKeys.teams)
      notifySuccess(t('已加入队伍'))
      form.reset()
      onClose()
    })
  })

  return (
    <Modal opened={opened} onClose={onClose} title={t('加入队伍')} data-testid="team-join-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('向队长索取邀请码，粘贴到下面。')}
          </Text>
          <TextInput label={t('邀请码')} placeholder={t('队伍名:队伍编号:邀请令牌')} data-testid="team-join-code" autoFocus {...form.getInputProps('code')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('取消')}
            </Button>
            <Button type="submit" loading={busy} data-testid="team-join-submit">
              {t('加入')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
