/**
 * What a webhook's target may be (docs/webhooks.md#targets, #ssrf): Discord and Slack URLs below
 * their configured bases, a Telegram bot token and chat id, a generic http(s) URL whose host
 * resolves only to public addresses unless private ones are allowed. Checked when a webhook is
 * saved, and again at every attempt (domain/webhooks/deliver.ts), where the connection goes to
 * the address that was checked.
 */
import { randomBytes } from 'node:crypto'
import type { WebhookKind } from '@flagwave/shared/enums'
import { badRequest } from '../../lib/errors.js'
import { parseTargetUrl, resolveTarget, TargetRefused } from '../../lib/ssrf.js'
import { belowBase, type SenderConfig } from './deliver.js'

export interface TargetInput {
  kind: WebhookKind
  url: string
  secret: string
  chatId: string
  allowPrivate: boolean
  rotateSecret: boolean
}

/** The stored target of a webhook: `url`, `secret`, `chatId` as the kind needs them. */
export async function checkTarget(
  config: SenderConfig,
  input: TargetInput,
  current: { kind: WebhookKind; secret: string } | null,
): Promise<{ url: string; secret: string; chatId: string }> {
  const refused = (reason: string) => badRequest(`目标地址不被允许：${reason}`)
  switch (input.kind) {
    case 'Discord':
    case 'Slack': {
      if (!input.url) throw badRequest('URL 是必需的')
      try {
        parseTargetUrl(input.url)
      } catch (err) {
        throw refused((err as Error).message)
      }
      if (!belowBase(config, input.kind, input.url)) {
        throw refused(`a ${input.kind} webhook URL starts with ${input.kind === 'Discord' ? config.WEBHOOK_DISCORD_URL : config.WEBHOOK_SLACK_URL}`)
      }
      return { url: input.url, secret: '', chatId: '' }
    }
    case 'Telegram': {
      const token = input.secret || (current?.kind === 'Telegram' ? current.secret : '')
      if (!/^\d{1,20}:[A-Za-z0-9_-]{10,200}$/.test(token)) throw badRequest('Telegram bot token 格式不正确')
      if (!/^(-?\d{1,20}|@[A-Za-z0-9_]{4,64})$/.test(input.chatId)) throw badRequest('Telegram chat ID 格式不正确')
      return { url: '', secret: token, chatId: input.chatId }
    }
    case 'Generic': {
      if (!input.url) throw badRequest('URL 是必需的')
      try {
        await resolveTarget(input.url, input.allowPrivate || config.WEBHOOK_ALLOW_PRIVATE)
      } catch (err) {
        if (err instanceof TargetRefused) throw refused(err.message)
        throw err
      }
      const keep = current?.kind === 'Generic' && !input.rotateSecret
      return { url: input.url, secret: keep ? current.secret : `whsec_${randomBytes(32).toString('base64url')}`, chatId: '' }
    }
  }
}
