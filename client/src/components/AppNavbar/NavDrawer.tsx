import type { ReactNode } from 'react'
import { Drawer } from '@mantine/core'
import { t } from '../../i18n'

/** The phone navigation drawer, loaded when the burger is first opened (AppNavbar). */
export default function NavDrawer({ opened, onClose, children }: { opened: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer opened={opened} onClose={onClose} size="xs" title={t('导航')} hiddenFrom="md">
      {children}
    </Drawer>
  )
}
