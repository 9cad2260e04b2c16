import { Button, Group } from '@mantine/core'
import { t } from '../../i18n'

interface ModalFooterProps {
  onCancel: () => void
  confirmLabel: string
  /** Absent in a form: the confirm button submits it. */
  onConfirm?: () => void
  loading?: boolean
  disabled?: boolean
  confirmTestId?: string
}

/** The right-aligned cancel / confirm buttons of a dialog. */
export function ModalFooter({ onCancel, confirmLabel, onConfirm, loading, disabled, confirmTestId }: ModalFooterProps) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('取消')}
      </Button>
      <Button type={onConfirm ? 'button' : 'submit'} onClick={onConfirm} loading={loading} disabled={disabled} data-testid={confirmTestId}>
        {confirmLabel}
      </Button>
    </Group>
  )
}
