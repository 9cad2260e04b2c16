import { forwardRef, type ComponentPropsWithoutRef } from 'react'
import { ActionIcon } from '@mantine/core'
import { IconLanguage } from '@tabler/icons-react'
import { language, t } from '../../i18n'

/** The header's language button, shared by the switch and its menu (LanguageMenu.tsx). */
export const LanguageButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(function LanguageButton(props, ref) {
  return (
    <ActionIcon ref={ref} variant="default" size="lg" aria-label={t('界面语言')} title={t('界面语言')} data-testid="language-switch" data-language={language} {...props}>
      <IconLanguage size={18} />
    </ActionIcon>
  )
})
