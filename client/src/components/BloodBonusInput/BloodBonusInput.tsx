/**
 * The game's blood bonus (docs/scoring.md#blood-bonus) as three percentages, first/second/third blood, each
 * 0–100.0 % in 0.1 % steps. The wire value is packed with the shared `encodeBloodBonus`
 * (thousandths in three 10-bit fields) and unpacked with `decodeBloodBonus`.
 */
import { Button, Group, Input, NumberInput, Text } from '@mantine/core'
import { DEFAULT_BLOOD_BONUS } from '@flagwave/shared/limits'
import { BLOOD_BONUS_BASE, decodeBloodBonus, encodeBloodBonus } from '@flagwave/shared/scoring'
import { formatNumber, t } from '../../i18n'

/** The three bonuses in percent as the inputs hold them (a string while being typed). */
export interface BloodBonusPercents {
  first: number | string
  second: number | string
  third: number | string
}

/** Percent (0–100, one decimal) of a thousandths field. */
const percentOf = (thousandths: number): number => thousandths / 10

/** Thousandths (0–1000) of a percent value; null when it is not a number in range. */
function thousandthsOf(percent: number | string): number | null {
  const value = typeof percent === 'number' ? percent : percent.trim() === '' ? NaN : Number(percent)
  if (!Number.isFinite(value)) return null
  const thousandths = Math.round(value * 10)
  return thousandths >= 0 && thousandths <= BLOOD_BONUS_BASE ? thousandths : null
}

export function bloodBonusToPercents(value: number): BloodBonusPercents {
  const parts = decodeBloodBonus(value)
  return { first: percentOf(parts.first), second: percentOf(parts.second), third: percentOf(parts.third) }
}

/** The encoded `bloodBonus`, or null when a field is invalid. */
export function percentsToBloodBonus(percents: BloodBonusPercents): number | null {
  const first = thousandthsOf(percents.first)
  const second = thousandthsOf(percents.second)
  const third = thousandthsOf(percents.third)
  if (first === null || second === null || third === null) return null
  return encodeBloodBonus(first, second, third)
}

/** A form-validation message for the three fields, or null. */
export function bloodBonusError(percents: BloodBonusPercents): string | null {
  return percentsToBloodBonus(percents) === null ? t('血量奖励必须介于 0 - 100%') : null
}

/** A 100-point challenge's score for each blood, one decimal. */
function exampleScores(encoded: number): { first: string; second: string; third: string } {
  const parts = decodeBloodBonus(encoded)
  const score = (thousandths: number) => formatNumber(Math.round(100 * (1 + thousandths / BLOOD_BONUS_BASE) * 10) / 10)
  return { first: score(parts.first), second: score(parts.second), third: score(parts.third) }
}

const FIELDS = [
  { key: 'first', label: t('一血') },
  { key: 'second', label: t('二血') },
  { key: 'third', label: t('三血') },
] as const

export interface BloodBonusInputProps {
  value: BloodBonusPercents
  onChange: (value: BloodBonusPercents) => void
  error?: string | null
  testId?: string
}

export function BloodBonusInput({ value, onChange, error, testId = 'blood-bonus' }: BloodBonusInputProps) {
  const encoded = percentsToBloodBonus(value)
  return (
    <Input.Wrapper
      label={t('三血奖励')}
      description={t('前三名解出者在题目当前分值之上获得的额外百分比（0 表示不加分）')}
      error={error ?? undefined}
      data-testid={testId}
    >
      <Group gap="sm" mt={6} align="flex-end" wrap="wrap">
        {FIELDS.map(({ key, label }) => (
          <NumberInput
            key={key}
            label={label}
            value={value[key]}
            onChange={(next) => onChange({ ...value, [key]: next })}
            min={0}
            max={100}
            step={0.1}
            decimalScale={1}
            clampBehavior="strict"
            allowNegative={false}
            suffix=" %"
            w={120}
            data-testid={`${testId}-${key}`}
          />
        ))}
        <Button variant="subtle" size="xs" onClick={() => onChange(bloodBonusToPercents(DEFAULT_BLOOD_BONUS))} data-testid={`${testId}-default`}>
          {t('恢复默认')}
        </Button>
      </Group>
      {/* What the percentages mean in points, not the packed wire value (kept in data-encoded for tools and tests). */}
      <Text size="xs" c="dimmed" mt={4} data-testid={`${testId}-encoded`} data-encoded={encoded ?? ''}>
        {encoded === null ? '—' : t('例如 100 分的题目：一血得 {{first}} 分，二血 {{second}} 分，三血 {{third}} 分', exampleScores(encoded))}
      </Text>
    </Input.Wrapper>
  )
}

