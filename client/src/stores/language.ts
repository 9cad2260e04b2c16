/**
 * The interface language chosen in this browser (remembered in localStorage); before any choice,
 * the browser's first supported language, English when none is (docs/architecture.md#languages).
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'

export const LANGUAGES = ['zh', 'en'] as const
export type Language = (typeof LANGUAGES)[number]

function browserLanguage(): Language {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split('-')[0]
    const found = LANGUAGES.find((l) => l === primary)
    if (found) return found
  }
  return 'en'
}

interface LanguageState {
  language: Language | null
  setLanguage: (language: Language) => void
}

export const useLanguage = create<LanguageState>()(
  persist((set) => ({ language: null, setLanguage: (language) => set({ language }) }), {
    name: 'flagwave-language',
    partialize: (state) => ({ language: state.language }),
  }),
)

export const initialLanguage = (): Language => {
  const chosen = useLanguage.getState().language
  return chosen && LANGUAGES.includes(chosen) ? chosen : browserLanguage()
}
