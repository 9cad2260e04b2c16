/** Single sign-on (docs/compatibility.md#single-sign-on), a Flagwave addition, typed with the shared schemas. */
import { z } from 'zod'
import { SsoAdminModel, SsoIdentityModel, SsoInfoModel, SsoLinkResponse, SsoProviderAdminModel, type SsoProviderCreateInput, type SsoProviderInput } from '@flagwave/shared/schemas/sso'
import { http } from './http'
import { t } from '../i18n'

const provider = (id: string) => encodeURIComponent(id)

export const ssoApi = {
  /** The sign-in page's provider buttons and whether password sign-in is refused. */
  info: () => http.get('/api/account/sso', { schema: SsoInfoModel }),
  /** Where the sign-in button sends the browser (a full navigation: the server redirects to the provider). */
  signInUrl: (id: string, returnTo: string) => `/api/account/sso/${provider(id)}?returnTo=${encodeURIComponent(returnTo)}`,
  /** The provider URL that links an identity to the signed-in account. */
  link: (id: string) => http.post(`/api/account/sso/${provider(id)}/link`, { schema: SsoLinkResponse }),
  identities: () => http.get('/api/account/identities', { schema: z.array(SsoIdentityModel) }),
  unlink: (id: string) => http.delete(`/api/account/identities/${provider(id)}`),
  admin: () => http.get('/api/admin/sso', { schema: SsoAdminModel }),
  setPolicy: (ssoOnly: boolean) => http.put('/api/admin/sso', { json: { ssoOnly } }),
  createProvider: (body: SsoProviderCreateInput) => http.post('/api/admin/sso/providers', { json: body, schema: SsoProviderAdminModel }),
  updateProvider: (id: string, body: SsoProviderInput) => http.put(`/api/admin/sso/providers/${provider(id)}`, { json: body, schema: SsoProviderAdminModel }),
  deleteProvider: (id: string) => http.delete(`/api/admin/sso/providers/${provider(id)}`),
}

/** What the sign-in page and the profile say for each `?ssoError=` code. */
export const SSO_ERROR_MESSAGES: Record<string, string> = {
  unknown_provider: t('该登录方式不存在或已停用'),
  provider_unavailable: t('登录服务暂时不可用，请稍后再试'),
  invalid_state: t('登录请求无效或已过期，请重新登录'),
  denied: t('登录服务拒绝了请求或已取消'),
  exchange_failed: t('登录服务的应答无效，请重新登录'),
  email_unverified: t('登录服务未验证你的邮箱，无法关联或创建账户'),
  email_domain: t('该邮箱域名不允许登录'),
  registration_disabled: t('注册功能已禁用，请联系管理员'),
  pending_approval: t('账户等待管理员审核'),
  banned: t('用户已被禁用'),
  identity_taken: t('该外部账户已关联其他用户'),
  already_linked: t('你已关联该登录方式'),
  account_conflict: t('无法关联已有账户，请先用密码登录后在个人资料中关联'),
}
