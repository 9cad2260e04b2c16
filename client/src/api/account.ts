/** Group `account` (docs/compatibility.md#group-account), typed with the shared schemas. */
import { z } from 'zod'
import {
  ProfileUserInfoModel,
  RegisterResponse,
  MailChangeResponse,
  type AccountVerifyModel,
  type LoginModel,
  type MailChangeModel,
  type PasswordChangeModel,
  type PasswordResetModel,
  type ProfileUpdateModel,
  type RecoveryModel,
  type RegisterModel,
} from '@flagwave/shared/schemas/account'
import { RequestResponse } from '@flagwave/shared/schemas/common'
import { http } from './http'

type In<T extends z.ZodType> = z.input<T>

export const accountApi = {
  /** 200 RequestResponse<RegisterStatus>: LoggedIn, AdminConfirmationRequired or EmailConfirmationRequired. */
  register: (body: In<typeof RegisterModel>) => http.post('/api/account/register', { json: body, schema: RegisterResponse }),
  /** 200 RequestResponse `邮件发送成功`. */
  recovery: (body: In<typeof RecoveryModel>) => http.post('/api/account/recovery', { json: body, schema: RequestResponse }),
  /** 200, empty body. `email` and `rToken` exactly as in the mailed link. */
  passwordReset: (body: In<typeof PasswordResetModel>) => http.post('/api/account/passwordreset', { json: body }),
  /** 200, empty body; signs the account in. */
  verify: (body: In<typeof AccountVerifyModel>) => http.post('/api/account/verify', { json: body }),
  /** 200, empty body; sets the session cookie. `userName` may be the e-mail address. */
  login: (body: In<typeof LoginModel>) => http.post('/api/account/login', { json: body }),
  logout: () => http.post('/api/account/logout'),
  update: (body: In<typeof ProfileUpdateModel>) => http.put('/api/account/update', { json: body }),
  changePassword: (body: In<typeof PasswordChangeModel>) => http.put('/api/account/changepassword', { json: body }),
  /** 200 RequestResponse<bool> `邮箱待验证`. */
  changeEmail: (body: In<typeof MailChangeModel>) => http.put('/api/account/changeemail', { json: body, schema: MailChangeResponse }),
  mailChangeConfirm: (body: In<typeof AccountVerifyModel>) => http.post('/api/account/mailchangeconfirm', { json: body }),
  profile: () => http.get('/api/account/profile', { schema: ProfileUserInfoModel }),
  /** Multipart `file`; 200 JSON string: the new avatar URL. */
  avatar: (file: File) => {
    const form = new FormData()
    form.append('file', file, file.name)
    return http.put('/api/account/avatar', { form, schema: z.string() })
  },
}
