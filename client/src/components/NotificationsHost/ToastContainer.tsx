import { Notifications, type NotificationsProps } from '@mantine/notifications'

/** Mantine's Notifications as a lazily loaded module of its own (NotificationsHost). */
export default function ToastContainer(props: NotificationsProps) {
  return <Notifications {...props} />
}
