import { ActionIcon, Menu } from '@mantine/core'
import { IconLanguage } from '@tabler/icons-react'
import { language, t } from '../../i18n'
import { LANGUAGES, useLanguage, type Language } from '../../stores/language'

/** Each language named in itself, so that a reader of the other language still finds theirs. */
// eslint-disable-next-line flagwave/no-literal-text -- each language is named in itself, never translated
const NATIVE_NAMES: Record<Language, string> = { zh: '简体中文', en: 'English' }

/**
 * The interface language; the choice is remembered in this browser. Choosing reloads the page:
 * texts are read once at start (client/src/i18n/index.ts).
 */
export function LanguageSwitch() {
  const setLanguage = useLanguage((state) => state.setLanguage)
  const choose = (next: Language) => {
    if (next === language) return
    setLanguage(next)
    window.location.reload()
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('界面语言')} title={t('界面语言')} data-testid="language-switch" data-language={language}>
          <IconLanguage size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((value) => (
          <Menu.Item key={value} lang={value === 'zh' ? 'zh-CN' : 'en'} data-testid={`language-${value}`} fw={value === language ? 700 : undefined} onClick={() => choose(value)}>
            {NATIVE_NAMES[value]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  )
}
