import { Select } from '@mantine/core'
import { t } from '../../../i18n'

interface ValueFilterProps {
  values: string[]
  value: string | null
  onChange: (value: string | null) => void
  /** What is filtered, e.g. 队伍 (label) → 全部队伍 / 无匹配队伍. */
  noun: string
  testId: string
}

/** A searchable select over the values of a loaded column; the chosen value stays offered when no row has it any more. */
export function ValueFilter({ values, value, onChange, noun, testId }: ValueFilterProps) {
  return (
    <Select
      size="xs"
      w={180}
      data={value && !values.includes(value) ? [value, ...values] : values}
      value={value}
      onChange={onChange}
      placeholder={t('全部{{noun}}', { noun })}
      searchable
      clearable
      nothingFoundMessage={t('无匹配{{noun}}', { noun })}
      aria-label={noun}
      data-testid={testId}
    />
  )
}
