import { Menu } from '@mantine/core'
import { language } from '../../i18n'
import { LANGUAGES, useLanguage, type Language } from '../../stores/language'
import { LanguageButton } from './LanguageButton'

/** Each language named in itself, so that a reader of the other language still finds theirs. */
// eslint-disable-next-line flagwave/no-literal-text -- each language is named in itself, never translated
const NATIVE_NAMES: Record<Language, string> = { zh: '简体中文', en: 'English' }

/**
 * The language menu, opened as it loads (LanguageSwitch loads it on the first click). Choosing
 * reloads the page: texts are read once at start (client/src/i18n/index.ts).
 */
export default function LanguageMenu() {
  const setLanguage = useLanguage((state) => state.setLanguage)
  const choose = (next: Language) => {
    if (next === language) return
    setLanguage(next)
    window.location.reload()
  }
  return (
    <Menu position="bottom-end" withinPortal defaultOpened>
      <Menu.Target>
        <LanguageButton />
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
