/**
 * Wire formatting shared by server, client and tests.
 * Dates travel as ISO-8601 with an explicit `+00:00` offset and trimmed fraction (docs/compatibility.md#dates).
 */
export function toWireDate(date: Date | string | number): string {
  const d = date instanceof Date ? date : new Date(date)
  const iso = d.toISOString() // 2023-09-29T14:51:23.120Z
  const [main, frac = ''] = iso.slice(0, -1).split('.')
  const trimmed = frac.replace(/0+$/, '')
  return `${main}${trimmed ? `.${trimmed}` : ''}+00:00`
}

export const EPOCH_WIRE = '1970-01-01T00:00:00+00:00'
export const MIN_DATE_WIRE = '0001-01-01T00:00:00+00:00'

/** A wire date is an ISO-8601 string with an explicit numeric offset. */
export const WIRE_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?[+-]\d{2}:\d{2}$/
