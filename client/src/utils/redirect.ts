/** A safe in-app redirect target from a `from` query value (never another origin). */
export function safeRedirect(from: string | null | undefined, fallback = '/'): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return fallback
  if (/^\/account\/(login|register)/i.test(from)) return fallback
  return from
}
