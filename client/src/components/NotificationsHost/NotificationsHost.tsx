/**
 * Mantine's toast container, mounted from the first toast on: the store keeps what was shown
 * before it mounted, so nothing is lost, and the container's code (transitions, scroll locking)
 * stays off the first page (docs/operations.md#benchmarks).
 */
import { lazy, Suspense, useState } from 'react'
import { notificationsStore, useNotifications } from '@mantine/notifications'
import { NOTIFICATIONS_PROPS } from '../../theme'

const Notifications = lazy(() => import('./ToastContainer'))

export function NotificationsHost() {
  const { notifications, queue } = useNotifications(notificationsStore)
  const [wanted, setWanted] = useState(false)
  if (!wanted && notifications.length + queue.length > 0) setWanted(true)
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <Notifications {...NOTIFICATIONS_PROPS} />
    </Suspense>
  )
}
