import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core'
import { IconMoon, IconSun } from '@tabler/icons-react'
import { t } from '../../i18n'

/** Switches between dark and light; the choice is remembered by the colour-scheme manager. */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme()
  const computed = useComputedColorScheme('dark', { getInitialValueInEffect: false })
  const next = computed === 'dark' ? 'light' : 'dark'
  const label = next === 'light' ? t('切换到浅色模式') : t('切换到深色模式')
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={label}
      title={label}
      data-testid="color-scheme-toggle"
      data-scheme={computed}
      onClick={() => setColorScheme(next)}
    >
      {computed === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
    </ActionIcon>
  )
}
