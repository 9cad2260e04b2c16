/**
 * Notification helpers: server titles are shown verbatim (docs/compatibility.md#error-bodies).
 * A title that only repeats the message is left out, and a toast identical to one still on screen
 * is not stacked again (same id: Mantine ignores it while the first is shown).
 */
import { notifications } from '@mantine/notifications'
import { errorMessage } from '../api/http'

function show(color: 'alert' | 'brand', message: string, title?: string): void {
  const shownTitle = title && title !== message ? title : undefined
  notifications.show({ id: `${color}\u0000${shownTitle ?? ''}\u0000${message}`, color, title: shownTitle, message })
}

export function notifyError(error: unknown, title?: string): void {
  show('alert', errorMessage(error), title)
}

export function notifySuccess(message: string, title?: string): void {
  show('brand', message, title)
}
