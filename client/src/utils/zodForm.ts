/**
 * Form validation from the shared zod schemas, so forms check exactly what the server checks
 * (docs/compatibility.md#shapes), with its messages in the interface language (docs/architecture.md#languages). `zodValidate(schema)` is a @mantine/form `validate` function.
 */
import type { z } from 'zod'
import { apiMessage } from '../i18n/messages'

export type FormErrors = Record<string, string>

export function zodErrors(schema: z.ZodType, values: unknown): FormErrors {
  const result = schema.safeParse(values)
  if (result.success) return {}
  const errors: FormErrors = {}
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.')
    errors[key] ??= apiMessage(issue.message)
  }
  return errors
}

export const zodValidate =
  <V>(schema: z.ZodType, extra?: (values: V) => FormErrors) =>
  (values: V): FormErrors => ({ ...(extra?.(values) ?? {}), ...zodErrors(schema, values) })
