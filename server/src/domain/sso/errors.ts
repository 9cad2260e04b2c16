/**
 * How a sign-in through a provider fails (docs/compatibility.md#single-sign-on). Each failure is an
 * `AppError` with its own title, so the JSON routes answer in the contract's shape; the callback,
 * which a browser follows, turns the title back into its `SsoErrorCode` for the sign-in page.
 */
import type { SsoErrorCode } from '@flagwave/shared/schemas/sso'
import { AppError } from '../../lib/errors.js'

const FAILURES: Record<SsoErrorCode, [status: number, title: string]> = {
  unknown_provider: [404, '未找到该登录方式'],
  provider_unavailable: [503, '登录服务暂时不可用'],
  invalid_state: [400, '登录请求无效或已过期'],
  denied: [401, '登录服务拒绝了请求'],
  exchange_failed: [401, '登录服务的应答无效'],
  email_unverified: [403, '登录服务未验证该邮箱'],
  email_domain: [403, '该邮箱域名不允许登录'],
  registration_disabled: [403, '注册功能已禁用'],
  pending_approval: [403, '账户等待管理员审核'],
  banned: [403, '用户已被禁用'],
  identity_taken: [400, '该外部账户已关联其他用户'],
  already_linked: [400, '已关联该登录方式'],
  account_conflict: [400, '无法关联已有账户'],
}

export const ssoError = (code: SsoErrorCode): AppError => {
  const [status, title] = FAILURES[code]
  return new AppError(status, title)
}

/** The code of an error `ssoError` made, or null for any other error. */
export function ssoErrorCode(err: unknown): SsoErrorCode | null {
  if (!(err instanceof AppError)) return null
  for (const [code, [status, title]] of Object.entries(FAILURES)) {
    if (err.status === status && err.title === title) return code as SsoErrorCode
  }
  return null
}
