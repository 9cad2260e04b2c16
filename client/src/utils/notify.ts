/** Notification helpers: server titles are shown verbatim (docs/compatibility.md#error-bodies). */
import { notifications } from '@mantine/notifications'
import { errorMessage } from '../api/http'

export function notifyError(error: unknown, title?: string): void {
  notifications.show({ color: 'alert', title, message: errorMessage(error) })
}

export function notifySuccess(message: string, title?: string): void {
  notifications.show({ color: 'brand', title, message })
}
