import { useEffect, useRef, useState } from 'react'
import { Alert, Anchor, Box, Button, Group, Loader, Stack, Text, useComputedColorScheme } from '@mantine/core'
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react'
import { errorMessage } from '../../api/http'
import { loadScript, RECAPTCHA_SCRIPT, TURNSTILE_SCRIPT } from './providers'
import type { CaptchaControl } from './useCaptcha'
import { t } from '../../i18n'

export { useCaptcha, type CaptchaControl } from './useCaptcha'

/** reCAPTCHA v3 puts its badge on the page; keep it there only while a form that uses it is shown. */
function setRecaptchaBadgeVisible(visible: boolean) {
  document.querySelectorAll<HTMLElement>('.grecaptcha-badge').forEach((badge) => {
    badge.style.visibility = visible ? '' : 'hidden'
  })
}

/**
 * The visible part of a form's captcha (see useCaptcha): nothing for `None`; for reCAPTCHA v3 the
 * script is loaded when the form is shown (the token is taken at submit); for Turnstile the widget.
 * Problems (settings not fetched, a script that cannot be loaded) are shown with a retry button.
 */
export function Captcha({ captcha }: { captcha: CaptchaControl }) {
  const { type, siteKey, action, token, error, retry } = captcha
  const { attempt, setError, setToken, setWidgetId } = captcha.bind
  const scheme = useComputedColorScheme('dark')
  const container = useRef<HTMLDivElement>(null)
  // True until the provider's script is there (and, for Turnstile, the widget rendered).
  const [loading, setLoading] = useState(true)

  // reCAPTCHA v3: load early so that `execute` at submit is quick (and fails early, visibly).
  useEffect(() => {
    if (type !== 'GoogleRecaptcha' || !siteKey) return
    let cancelled = false
    setLoading(true)
    loadScript(RECAPTCHA_SCRIPT(siteKey), () => window.grecaptcha)
      .then(
        () => !cancelled && setError(null),
        (cause: unknown) => !cancelled && setError(errorMessage(cause)),
      )
      .finally(() => !cancelled && setLoading(false))
    setRecaptchaBadgeVisible(true)
    return () => {
      cancelled = true
      setRecaptchaBadgeVisible(false)
    }
  }, [type, siteKey, attempt, setError])

  // Turnstile: explicit rendering into our container; the token follows the widget's callbacks.
  useEffect(() => {
    const element = container.current
    if (type !== 'CloudflareTurnstile' || !siteKey || !element) return
    let cancelled = false
    let widgetId: string | undefined
    setLoading(true)
    setToken(null)
    loadScript(TURNSTILE_SCRIPT, () => window.turnstile)
      .then((turnstile) => {
        if (cancelled) return
        setError(null)
        try {
          widgetId = turnstile.render(element, {
            sitekey: siteKey,
            action,
            theme: scheme,
            size: 'flexible',
            callback: (value) => setToken(value || null),
            'expired-callback': () => setToken(null),
            'timeout-callback': () => setToken(null),
            // Turnstile shows the problem in the widget and retries by itself; a token is no longer valid.
            'error-callback': () => {
              setToken(null)
              return true
            },
          })
          setWidgetId(widgetId ?? null)
        } catch (cause) {
          setError(t('人机验证组件无法显示：{{v0}}', { v0: errorMessage(cause) }))
        }
      })
      .catch((cause: unknown) => {
        if (!cancelled) setError(errorMessage(cause))
      })
      .finally(() => {
        if (!cancelled) setLoading(false)
      })
    return () => {
      cancelled = true
      setToken(null)
      setWidgetId(null)
      if (widgetId !== undefined) {
        try {
          window.turnstile?.remove(widgetId)
        } catch {
          // already gone
        }
      }
    }
  }, [type, siteKey, action, scheme, attempt, setError, setToken, setWidgetId])

  if (type === 'None' || (type === null && !error)) return null
  const state = error ? 'error' : loading ? 'loading' : token ? 'solved' : 'ready'

  return (
    <Stack gap="xs" data-testid="captcha" data-provider={type ?? 'unknown'} data-state={state}>
      {type === 'CloudflareTurnstile' && (
        // Turnstile owns the inner element; the loader sits over it, in the space the widget takes.
        <Box pos="relative" mih={error ? undefined : 65}>
          <div ref={container} data-testid="captcha-widget" />
          {loading && (
            <Group gap="xs" pos="absolute" inset={0} justify="center" data-testid="captcha-loading">
              <Loader size="xs" type="oval" />
              <Text size="sm" c="dimmed">
                {t('正在加载人机验证…')}
              </Text>
            </Group>
          )}
        </Box>
      )}
      {type === 'GoogleRecaptcha' && !error && (
        <Text size="xs" c="dimmed" data-testid="captcha-notice">
          {t('此站点受 reCAPTCHA 保护，适用 Google')}{' '}
          <Anchor href="https://policies.google.com/privacy" target="_blank" rel="noreferrer" inherit>
            {t('隐私政策')}
          </Anchor>
          {t('和')}
          <Anchor href="https://policies.google.com/terms" target="_blank" rel="noreferrer" inherit>
            {t('服务条款')}
          </Anchor>
          {t('。')}
        </Text>
      )}
      {error && (
        <Alert color="alert" variant="light" icon={<IconAlertTriangle />} title={t('人机验证不可用')} data-testid="captcha-error">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{error}</Text>
            <Button size="xs" variant="light" color="alert" leftSection={<IconRefresh size={14} />} onClick={retry} data-testid="captcha-retry">
              {t('重试')}
            </Button>
          </Stack>
        </Alert>
      )}
    </Stack>
  )
}

