/**
 * Flagwave's account security routes: API tokens (`/api/account/tokens`) and two-factor sign-in
 * (`/api/account/2fa`), docs/compatibility.md#api-tokens, #two-factor-authentication.
 */
import { z } from 'zod'
import { TokenCreatedModel, TokenInfoModel, type TokenCreateModel } from '@flagwave/shared/schemas/tokens'
import {
  RecoveryCodesModel,
  TwoFactorEnrolmentModel,
  TwoFactorStatusModel,
  type TwoFactorLoginModel,
  type TwoFactorProofModel,
} from '@flagwave/shared/schemas/twoFactor'
import { ApiError, http } from './http'

export const tokensApi = {
  list: () => http.get('/api/account/tokens', { schema: z.array(TokenInfoModel) }),
  /** The answer carries the secret, this once. */
  create: (body: z.input<typeof TokenCreateModel>) => http.post('/api/account/tokens', { json: body, schema: TokenCreatedModel }),
  revoke: (id: string) => http.delete(`/api/account/tokens/${encodeURIComponent(id)}`),
}

export const twoFactorApi = {
  status: () => http.get('/api/account/2fa', { schema: TwoFactorStatusModel }),
  enrol: () => http.post('/api/account/2fa/enrol', { schema: TwoFactorEnrolmentModel }),
  confirm: (code: string) => http.post('/api/account/2fa/confirm', { json: { code }, schema: RecoveryCodesModel }),
  disable: (body: z.input<typeof TwoFactorProofModel>) => http.post('/api/account/2fa/disable', { json: body }),
  regenerate: (body: z.input<typeof TwoFactorProofModel>) => http.post('/api/account/2fa/recovery', { json: body, schema: RecoveryCodesModel }),
  forgetDevices: () => http.delete('/api/account/2fa/devices'),
  /** The second step of a sign-in; sets the session cookie. */
  login: (body: z.input<typeof TwoFactorLoginModel>) => http.post('/api/account/2fa/login', { json: body }),
}

/** The login answered `{ twoFactorRequired: true }`: a second step follows. */
export const needsSecondStep = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 401 && (error.body as { twoFactorRequired?: unknown } | undefined)?.twoFactorRequired === true
