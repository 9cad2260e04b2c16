import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from '@flagwave/shared/limits'
import { TEAM_NAME_EMPTY_MESSAGE, TeamUpdateModel } from '@flagwave/shared/schemas/teams'
import { teamApi } from '../../api/teams'
import { notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { upsertTeam } from './teamCache'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'

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
    await run(t('创建队伍失败'), async () => {
      const team = await teamApi.create({ name: values.name.trim(), bio: values.bio })
      upsertTeam(team)
      notifySuccess(t('队伍「{{name}}」已创建', { name: team.name }))
      form.reset()
      onClose()
    })
  })

  return (
    <Modal opened={opened} onClose={onClose} title={t('创建队伍')} data-testid="team-create-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('队伍名称')}
            required
            description={t('不超过 {{TEAM_NAME_MAX}} 个字符', { TEAM_NAME_MAX })}
            data-testid="team-create-name"
            {...form.getInputProps('name')}
          />
          <Textarea label={t('队伍签名')} description={t('不超过 {{TEAM_BIO_MAX}} 个字符', { TEAM_BIO_MAX })} autosize minRows={2} data-testid="team-create-bio" {...form.getInputProps('bio')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('取消')}
            </Button>
            <Button type="submit" loading={busy} data-testid="team-create-submit">
              {t('创建')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
