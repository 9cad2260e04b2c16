import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from '@flagwave/shared/limits'
import { TEAM_NAME_EMPTY_MESSAGE, TeamUpdateModel } from '@flagwave/shared/schemas/teams'
import { teamApi } from '../../api/teams'
import { notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { upsertTeam } from './teamCache'
import { useAction } from '../../hooks/useAction'

/** POST /api/team: name (≤ 15, required) and bio (≤ 31); the creator becomes captain. */
export function CreateTeamModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { busy, run } = useAction()
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', bio: '' },
    validate: (values) => ({
      ...(values.name.trim() === '' ? { name: TEAM_NAME_EMPTY_MESSAGE } : {}),
      ...zodErrors(TeamUpdateModel, { name: values.name.trim(), bio: values.bio }),
    }),
  })

  const submit = form.onSubmit(async (values) => {
    await run('创建队伍失败', async () => {
      const team = await teamApi.create({ name: values.name.trim(), bio: values.bio })
      upsertTeam(team)
      notifySuccess(`队伍「${team.name}」已创建`)
      form.reset()
      onClose()
    })
  })

  return (
    <Modal opened={opened} onClose={onClose} title="创建队伍" data-testid="team-create-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="队伍名称"
            required
            description={`不超过 ${TEAM_NAME_MAX} 个字符`}
            data-testid="team-create-name"
            {...form.getInputProps('name')}
          />
          <Textarea label="队伍签名" description={`不超过 ${TEAM_BIO_MAX} 个字符`} autosize minRows={2} data-testid="team-create-bio" {...form.getInputProps('bio')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              取消
            </Button>
            <Button type="submit" loading={busy} data-testid="team-create-submit">
              创建
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
