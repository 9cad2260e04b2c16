/**
 * The Mantine theme and the provider settings of docs/compatibility.md#interface-basics, #client-constants: teal-green primary colour, a
 * red alert palette, sans-serif body and monospace code fonts, bars loader, dark colour scheme by
 * default with the user's choice remembered, notification and modal defaults.
 */
import {
  createTheme,
  localStorageColorSchemeManager,
  Loader,
  Notification,
  type MantineColorsTuple,
  type MantineColorScheme,
} from '@mantine/core'
import type { NotificationsProps } from '@mantine/notifications'
import type { ModalsProviderProps } from '@mantine/modals'
import { t } from './i18n'

/** Teal-green primary palette (shade 4 is the brand colour). */
const brand: MantineColorsTuple = [
  '#e0fff6',
  '#b3ffe9',
  '#80ffdb',
  '#4dfacc',
  '#1de9b6',
  '#14cfa1',
  '#0db08a',
  '#088f70',
  '#056f57',
  '#02503f',
]

/** Red palette for alerts, destructive actions and errors. */
const alert: MantineColorsTuple = [
  '#ffe9e9',
  '#ffcfcf',
  '#ff9d9d',
  '#ff6767',
  '#fa3e3e',
  '#f02424',
  '#d61414',
  '#b10d0d',
  '#8c0909',
  '#670505',
]

const FONT_SANS =
  '"IBM Plex Sans", "Noto Sans SC", -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "Microsoft YaHei", sans-serif'
const FONT_MONO = '"JetBrains Mono", "Fira Code", "Cascadia Code", ui-monospace, SFMono-Regular, Menlo, Consolas, monospace'

/** docs/compatibility.md#client-constants: the fixed bottom panel is 240 px high. */
const BOTTOM_PANEL_HEIGHT = 240

/** docs/compatibility.md#client-constants modal behaviour, shared by `<Modal>` defaults and the modals manager. */
const MODAL_SETTINGS = {
  centered: true,
  closeOnEscape: true,
  closeOnClickOutside: true,
  trapFocus: true,
  transitionProps: { duration: 200 },
} as const

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  autoContrast: true,
  colors: { brand, alert },
  fontFamily: FONT_SANS,
  fontFamilyMonospace: FONT_MONO,
  headings: { fontFamily: FONT_SANS },
  defaultRadius: 'md',
  components: {
    Loader: Loader.extend({ defaultProps: { type: 'bars' } }),
    Notification: Notification.extend({ defaultProps: { withCloseButton: false } }),
    // A plain object rather than Modal.extend(): importing Modal here would put it on the first page.
    Modal: { defaultProps: MODAL_SETTINGS },
  },
  other: {
    bottomPanelHeight: BOTTOM_PANEL_HEIGHT,
  },
})

/** Dark by default; the user's choice is remembered in localStorage (same key as index.html). */
const COLOR_SCHEME_KEY = 'flagwave-color-scheme'
export const DEFAULT_COLOR_SCHEME: MantineColorScheme = 'dark'
export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY })

/** docs/compatibility.md#client-constants: bottom right, 4000 ms, at most 5, 440 px wide, 200 px high at most, 250 ms transition. */
export const NOTIFICATIONS_PROPS = {
  position: 'bottom-right',
  autoClose: 4000,
  limit: 5,
  containerWidth: 440,
  notificationMaxHeight: 200,
  transitionDuration: 250,
} as const satisfies NotificationsProps

/** docs/compatibility.md#interface-basics, #client-constants: confirm/cancel labels in the interface language and the modal behaviour above. */
export const MODALS_PROPS = {
  labels: { confirm: t('确认'), cancel: t('取消') },
  modalProps: MODAL_SETTINGS,
} as const satisfies Omit<ModalsProviderProps, 'children'>
