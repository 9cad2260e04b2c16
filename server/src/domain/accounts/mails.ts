/**
 * The account e-mails: confirmation, password reset and e-mail change, each carrying its link
 * (docs/compatibility.md#group-account). Sent through the mailer, which logs instead when SMTP_URL is unset.
 */
import type { Mailer } from '../../lib/mailer.js'

export type AccountMail = 'verify' | 'reset' | 'confirm'

const TEXTS: Record<AccountMail, { subject: string; intro: string }> = {
  verify: { subject: '验证邮箱', intro: '欢迎注册！请点击以下链接验证你的邮箱' },
  reset: { subject: '重置密码', intro: '你正在重置密码，请点击以下链接设置新密码' },
  confirm: { subject: '更换邮箱', intro: '你正在更换邮箱，请点击以下链接确认新邮箱' },
}

/** Send one account mail; false when the mail server refused it. */
export function sendAccountMail(mailer: Mailer, kind: AccountMail, to: string, userName: string, link: string): Promise<boolean> {
  const { subject, intro } = TEXTS[kind]
  const text = [`${userName}，你好！`, '', `${intro}（3 小时内有效）：`, '', link, '', '如果这不是你本人的操作，请忽略此邮件。'].join('\n')
  return mailer.send({ to, subject, text })
}
