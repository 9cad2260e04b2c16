/**
 * `confirmDialog({...})`: a Chinese confirm/cancel dialog (docs/compatibility.md#interface-basics) through the modals manager,
 * resolving to true when confirmed. The buttons carry `confirm-ok` / `confirm-cancel` test ids.
 */
import type { ReactNode } from 'react'
import { Text } from '@mantine/core'
import { modals } from '@mantine/modals'
import { t } from '../../i18n'
import { modalsReady } from './modalsHost'

export interface ConfirmOptions {
  title: ReactNode
  message: ReactNode
  /** Label of the confirm button (default 确认). */
  confirmLabel?: string
  /** Destructive action: red confirm button. */
  danger?: boolean
}

export function confirmDialog({ title, message, confirmLabel = t('确认'), danger = false }: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false
    const settle = (value: boolean) => {
      if (settled) return
      settled = true
      resolve(value)
    }
    void modalsReady().then(() =>
      modals.openConfirmModal({
        title,
        children: typeof message === 'string' ? <Text size="sm">{message}</Text> : message,
        labels: { confirm: confirmLabel, cancel: t('取消') },
        confirmProps: { color: danger ? 'alert' : undefined, 'data-testid': 'confirm-ok' },
        cancelProps: { 'data-testid': 'confirm-cancel' },
        onConfirm: () => settle(true),
        onCancel: () => settle(false),
        onClose: () => settle(false),
      }),
    )
  })
}
