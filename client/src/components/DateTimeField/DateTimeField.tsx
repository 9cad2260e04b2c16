/**
 * A date-time picker over wire dates: the value is an ISO-8601 instant (as the API sends it,
 * e.g. `2023-10-01T00:00:00+00:00`), shown and picked in the browser's local time, and handed
 * back as UTC ISO (`Date#toISOString`, the form the reference client sends, docs/compatibility.md#dates).
 */
import '@mantine/dates/styles.css'
import dayjs from 'dayjs'
import { DATES_LOCALE } from '../../i18n'
import { DatesProvider, DateTimePicker, type DateTimePickerProps } from '@mantine/dates'

const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss'

/** Picker value (local `YYYY-MM-DD HH:mm:ss`) of an ISO instant. */
const toPickerValue = (iso: string | null | undefined): string | null => (iso && dayjs(iso).isValid() ? dayjs(iso).format(PICKER_FORMAT) : null)

/** UTC ISO instant of a picker value (local time). */
const fromPickerValue = (value: string | null | undefined): string | null => (value && dayjs(value).isValid() ? dayjs(value).toDate().toISOString() : null)

/** Any wire/ISO date as UTC ISO (`…Z`), for request bodies. */
export const toUtcIso = (value: string | number | Date): string => new Date(value).toISOString()

export interface DateTimeFieldProps extends Omit<DateTimePickerProps, 'value' | 'onChange' | 'defaultValue'> {
  value: string | null
  onChange: (iso: string | null) => void
  testId?: string
}

export function DateTimeField({ value, onChange, testId, ...props }: DateTimeFieldProps) {
  return (
    <DatesProvider settings={{ locale: DATES_LOCALE, firstDayOfWeek: 1 }}>
      <DateTimePicker
        valueFormat="YYYY-MM-DD HH:mm"
        {...props}
        value={toPickerValue(value)}
        onChange={(next) => onChange(fromPickerValue(next))}
        data-testid={testId}
        data-value={value ?? ''}
      />
    </DatesProvider>
  )
}

