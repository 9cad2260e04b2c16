import { Button, Group } from '@mantine/core'

interface ModalFooterProps {
  onCancel: () => void
  confirmLabel: string
  onConfirm: () => void
  loading?: boolean
  disabled?: boolean
  confirmTestId?: string
}

/** The right-aligned 取消 / confirm buttons of a dialog. */
export function ModalFooter({ onCancel, confirmLabel, onConfirm, loading, disabled, confirmTestId }: ModalFooterProps) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        取消
      </Button>
      <Button onClick={onConfirm} loading={loading} disabled={disabled} data-testid={confirmTestId}>
        {confirmLabel}
      </Button>
    </Group>
  )
}
