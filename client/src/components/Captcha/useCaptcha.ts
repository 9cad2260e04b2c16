/**
 * Captcha for the account forms (docs/compatibility.md#group-info, #account-shapes ModelWithCaptcha).
 *
 * GET /api/captcha is asked once per page load (shared by every form). Then:
 * - `None` (the default): nothing is shown, nothing is loaded, `challenge` is null;
 * - `GoogleRecaptcha` (v3, invisible): the script is loaded when the form is shown and a fresh token
 *   is obtained with `grecaptcha.execute(siteKey, { action })` by `getChallenge()`, right before
 *   the request;
 * - `CloudflareTurnstile`: <Captcha> renders the widget; `getChallenge()` gives its current token
 *   (null while unsolved: the server answers `验证码校验失败`) and `reset()` asks for a new one —
 *   call it after every failed submit, since the server has spent the token.
 *
 * ```tsx
 * const captcha = useCaptcha('login')
 * const submit = form.onSubmit(async (values) => {
 *   try {
 *     await accountApi.login({ ...values, challenge: await captcha.getChallenge() })
 *   } catch (error) {
 *     captcha.reset()
 *     notifyError(error, '登录失败')
 *   }
 * })
 * return <form>… <Captcha captcha={captcha} /> …</form>
 * ```
 *
 * A provider script that cannot be loaded rejects `getChallenge()` with a readable CaptchaError and
 * shows it in <Captcha> with a retry button, instead of leaving the form waiting.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { CaptchaProvider } from '@flagwave/shared/enums'
import type { ClientCaptchaInfoModel } from '@flagwave/shared/schemas/config'
import { infoApi } from '../../api/info'
import { errorMessage } from '../../api/http'
import { CaptchaError, executeRecaptcha } from './providers'
import { t } from '../../i18n'

let captchaInfo: ClientCaptchaInfoModel | null = null
let captchaInfoRequest: Promise<ClientCaptchaInfoModel> | null = null

/** GET /api/captcha, once per page load; a failed request is asked again next time. */
function loadCaptchaInfo(): Promise<ClientCaptchaInfoModel> {
  if (captchaInfo) return Promise.resolve(captchaInfo)
  captchaInfoRequest ??= infoApi.captcha().then(
    (info) => (captchaInfo = info),
    (error: unknown) => {
      captchaInfoRequest = null
      throw new CaptchaError(t('无法获取验证码设置：{{v0}}', { v0: errorMessage(error) }))
    },
  )
  return captchaInfoRequest
}

/** What <Captcha> needs from the hook; not for forms. */
interface CaptchaBinding {
  /** Bumped by `retry()`: <Captcha> loads the provider again. */
  attempt: number
  setToken: (token: string | null) => void
  setError: (error: string | null) => void
  setWidgetId: (id: string | null) => void
}

export interface CaptchaControl {
  /** The provider in use; null until GET /api/captcha answered. */
  type: CaptchaProvider | null
  siteKey: string
  /** reCAPTCHA / Turnstile action name (letters, digits, `_`). */
  action: string
  /** Turnstile: the widget's current token (null until solved, after expiry and after `reset()`). */
  token: string | null
  /** A readable problem (settings not fetched, script not loaded); null when fine. */
  error: string | null
  /** The `challenge` for the request body: null when captcha is off. Rejects with a CaptchaError when it cannot be had. */
  getChallenge: () => Promise<string | null>
  /** After a failed submit: a Turnstile token is single-use, so the widget asks for a new one. */
  reset: () => void
  /** Try again after `error` (fetch the settings / load the script anew). */
  retry: () => void
  bind: CaptchaBinding
}

export function useCaptcha(action: string): CaptchaControl {
  const [info, setInfo] = useState<ClientCaptchaInfoModel | null>(captchaInfo)
  const [token, setTokenState] = useState<string | null>(null)
  const [error, setErrorState] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  const tokenRef = useRef<string | null>(null)
  const errorRef = useRef<string | null>(null)
  const widgetIdRef = useRef<string | null>(null)

  const setToken = useCallback((value: string | null) => {
    tokenRef.current = value
    setTokenState(value)
  }, [])
  const setError = useCallback((value: string | null) => {
    errorRef.current = value
    setErrorState(value)
  }, [])
  const setWidgetId = useCallback((id: string | null) => {
    widgetIdRef.current = id
  }, [])

  useEffect(() => {
    if (info) return
    let cancelled = false
    loadCaptchaInfo().then(
      (value) => {
        if (cancelled) return
        setError(null)
        setInfo(value)
      },
      (cause: unknown) => {
        if (!cancelled) setError(errorMessage(cause))
      },
    )
    return () => {
      cancelled = true
    }
  }, [info, attempt, setError])

  const getChallenge = useCallback(async (): Promise<string | null> => {
    let current: ClientCaptchaInfoModel
    try {
      current = await loadCaptchaInfo()
    } catch (cause) {
      setError(errorMessage(cause))
      throw cause
    }
    setInfo((previous) => previous ?? current)
    switch (current.type) {
      case 'None':
        return null
      case 'GoogleRecaptcha':
        try {
          const challenge = await executeRecaptcha(current.siteKey, action)
          setError(null)
          return challenge
        } catch (cause) {
          const message = errorMessage(cause)
          setError(message)
          throw cause instanceof CaptchaError ? cause : new CaptchaError(t('验证码服务出错：{{message}}', { message }))
        }
      case 'CloudflareTurnstile':
        // The widget could not be shown: say why rather than send a request bound to fail.
        if (errorRef.current && !tokenRef.current) throw new CaptchaError(errorRef.current)
        return tokenRef.current
    }
  }, [action, setError])

  const reset = useCallback(() => {
    if (info?.type !== 'CloudflareTurnstile') return
    setToken(null)
    const id = widgetIdRef.current
    if (id !== null) {
      try {
        window.turnstile?.reset(id)
      } catch {
        // the widget is gone (unmounted); nothing to reset
      }
    }
  }, [info, setToken])

  const retry = useCallback(() => {
    setError(null)
    setAttempt((n) => n + 1)
  }, [setError])

  const bind = useMemo<CaptchaBinding>(() => ({ attempt, setToken, setError, setWidgetId }), [attempt, setToken, setError, setWidgetId])

  return {
    type: info?.type ?? null,
    siteKey: info?.siteKey ?? '',
    action,
    token,
    error,
    getChallenge,
    reset,
    retry,
    bind,
  }
}
