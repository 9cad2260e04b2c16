/**
 * Create a challenge (POST /api/edit/games/{id}/challenges): title, category and type; the type
 * cannot be changed later. The new challenge starts disabled; `onCreated` gets its detail.
 */
import { Modal, Select, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import type { ChallengeTag, ChallengeType } from '@flagwave/shared/enums'
import { ChallengeCreateModel, type ChallengeEditDetailModel } from '@flagwave/shared/schemas/challenges'
import { editApi } from '../../api/edit'
import { zodErrors } from '../../utils/zodForm'
import { TAG_META, TAG_ORDER } from '../ChallengeTag/ChallengeTag'
import { CHALLENGE_TYPE_META, CHALLENGE_TYPES } from './ChallengeTypes'
import { useAction } from '../../hooks/useAction'
import { ModalFooter } from '../ModalFooter/ModalFooter'
import { t } from '../../i18n'

export interface ChallengeCreateModalProps {
  gameId: number
  opened: boolean
  onClose: () => void
  onCreated: (challenge: ChallengeEditDetailModel) => void
}

interface Values {
  title: string
  tag: ChallengeTag
  type: ChallengeType
}

export function ChallengeCreateModal({ gameId, opened, onClose, onCreated }: ChallengeCreateModalProps) {
  const { busy, run } = useAction()
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { title: '', tag: 'Misc', type: 'StaticAttachment' },
    validate: (values) => zodErrors(ChallengeCreateModel, values),
  })

  const submit = form.onSubmit(async (values) => {
    await run(t('创建题目失败'), async () => {
      const created = await editApi.challenges.create(gameId, { title: values.title.trim(), tag: values.tag, type: values.type })
      form.reset()
      onCreated(created)
    })
  })

  return (
    <Modal opened={opened} onClose={onClose} title={t('新建题目')} data-testid="challenge-create-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('题目标题')} placeholder={t('Hello, World!')} data-autofocus data-testid="challenge-create-title" {...form.getInputProps('title')} />
          <Select
            label={t('题目类别')}
            data={TAG_ORDER.map((tag) => ({ value: tag, label: TAG_META[tag].label }))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="challenge-create-tag"
            {...form.getInputProps('tag')}
          />
          <Select
            label={t('题目类型')}
            description={t('创建后不可更改')}
            data={CHALLENGE_TYPES.map((type) => ({ value: type, label: CHALLENGE_TYPE_META[type].label }))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="challenge-create-type"
            {...form.getInputProps('type')}
          />
          <Text size="xs" c="dimmed" data-testid="challenge-create-type-description">
            {CHALLENGE_TYPE_META[form.values.type].description}
          </Text>
          <ModalFooter onCancel={onClose} confirmLabel={t('创建题目')} loading={busy} confirmTestId="challenge-create-submit" />
        </Stack>
      </form>
    </Modal>
  )
}

