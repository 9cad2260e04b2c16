/** First/second/third blood marks (gold, silver, bronze drops) used by boards and scoreboards. */
import { Tooltip } from '@mantine/core'
import { IconDropletFilled } from '@tabler/icons-react'
import type { SubmissionType } from '@flagwave/shared/enums'
import { t } from '../../i18n'

export type BloodKind = 'FirstBlood' | 'SecondBlood' | 'ThirdBlood'

export const BLOOD_KINDS: readonly BloodKind[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood']

export const BLOOD_META: Record<BloodKind, { label: string; short: string; color: string }> = {
  FirstBlood: { label: t('一血'), short: '1st', color: '#f5c518' },
  SecondBlood: { label: t('二血'), short: '2nd', color: '#c0c6d0' },
  ThirdBlood: { label: t('三血'), short: '3rd', color: '#cd7f32' },
}

export const isBlood = (type: SubmissionType | string): type is BloodKind => type in BLOOD_META

export interface BloodIconProps {
  kind: BloodKind
  size?: number
  /** Tooltip text (defaults to the blood's label). */
  label?: string
  testId?: string
}

export function BloodIcon({ kind, size = 16, label, testId }: BloodIconProps) {
  const meta = BLOOD_META[kind]
  return (
    <Tooltip label={label ?? meta.label} withArrow openDelay={150}>
      <IconDropletFilled size={size} color={meta.color} data-testid={testId} data-blood={kind} aria-label={label ?? meta.label} style={{ flexShrink: 0 }} />
    </Tooltip>
  )
}
