/**
 * The interface's languages (docs/architecture.md#languages). Keys are the Simplified Chinese
 * texts themselves: Chinese needs no dictionary (a missing key reads as itself), English maps every
 * key (tests/unit/i18n.test.ts checks that none is missing). The API's own texts (validation
 * messages, error titles) are mapped by ./messages.ts.
 *
 * `t` is module-level so that constants and helpers outside components can use it; the language is
 * therefore fixed for the life of the page and switching it reloads (stores/language.ts).
 *
 * Only the active language's dictionary is loaded: English comes as a hashed JSON asset fetched at
 * start (data, not a script: it does not count against the JavaScript budget and parses faster), and main.tsx
 * imports the application only once `languageReady` has settled, so every module calling `t()` —
 * at load time too — runs after the dictionary arrived; a Chinese page never downloads it (the
 * first page stays < 250 KB gzipped, docs/operations.md#benchmarks).
 */
import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import { initialLanguage, type Language } from '../stores/language'
import englishUrl from './locales/en.json?url'

export const language: Language = initialLanguage()


// react-i18next's <Trans> renders sentences with links in them from one key.
void i18next.use(initReactI18next).init({
  lng: language,
  // Chinese reads the keys themselves.
  resources: { en: { translation: {} }, zh: { translation: {} } },
  fallbackLng: false,
  // Natural-language keys contain ':' and '.'.
  keySeparator: false,
  nsSeparator: false,
  // React escapes; i18next escaping would show '&amp;' in titles.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
})

/** The BCP 47 tag of the interface language, for Intl and `<html lang>`. */
export const locale = language === 'zh' ? 'zh-CN' : 'en'

/** Date and time as readers of the language expect them (dayjs patterns; month names come from the dayjs locale). */
export const DATE_TIME_PATTERN = language === 'zh' ? 'YYYY-MM-DD HH:mm' : 'MMM D, YYYY HH:mm'
/** The dayjs/Mantine dates locale of the interface language. */
export const DATES_LOCALE = language === 'zh' ? 'zh-cn' : 'en'

dayjs.locale(DATES_LOCALE)
document.documentElement.lang = locale

export const t = i18next.t.bind(i18next)

/** Settles when the active language's dictionary is in place (at once for Chinese). */
export const languageReady: Promise<void> =
  language === 'en'
    ? fetch(englishUrl)
        .then((response) => {
          if (!response.ok) throw new Error(`English dictionary: HTTP ${response.status}`)
          return response.json() as Promise<Record<string, string>>
        })
        .then((english) => {
          i18next.addResourceBundle('en', 'translation', english)
        })
        // Unreachable (offline, a stale deploy): the interface still starts, reading the Chinese keys.
        .catch(() => undefined)
    : Promise.resolve()

const lists = new Intl.ListFormat(locale, { type: 'conjunction' })
/** Names joined as the language joins them ("a, b and c" / "a、b和c"). */
export const formatList = (items: string[]): string => lists.format(items)

const numbers = new Intl.NumberFormat(locale)
/** A number in the interface language's grouping. */
export const formatNumber = (value: number): string => numbers.format(value)
