/**
 * What each kind of target receives (docs/webhooks.md#targets): the request for one attempt of a
 * delivery. Chat services get a short text; the generic target gets the event as JSON, signed.
 */
import { createHmac } from 'node:crypto'
import type { WebhookKind } from '@flagwave/shared/enums'
import type { Config } from '../../config.js'

/** The event data stored in a delivery row (webhook_deliveries.payload); see docs/webhooks.md#payloads. */
export interface WebhookPayload {
  game: { id: number; title: string }
  /** When it happened, ISO 8601. */
  time: string
  team?: string
  challenge?: { id: number; title: string }
  /** 0, 1, 2 for the first, second, third blood. */
  rank?: number
  content?: string
}

export interface TargetConfig {
  kind: WebhookKind
  url: string
  secret: string
  chatId: string
}

export interface DeliveryRequest {
  url: string
  headers: Record<string, string>
  body: string
}

const BLOOD = ['一血', '二血', '三血']

/** The one-line message chat services show. */
function messageText(event: string, p: WebhookPayload): string {
  const title = p.challenge?.title ?? ''
  const game = `[${p.game.title}] `
  switch (event) {
    case 'blood':
      return `${game}🩸 ${p.team} 获得了「${title}」的${BLOOD[p.rank ?? 0]}`
    case 'solve':
      return `${game}✅ ${p.team} 解出了「${title}」`
    case 'notice':
      return `${game}📢 ${p.content ?? ''}`
    case 'gameStart':
      return `${game}🚩 比赛开始了`
    case 'gameEnd':
      return `${game}🏁 比赛结束了`
    default:
      return `${game}这是一条来自 Flagwave 的测试消息`
  }
}

/** Slack's mrkdwn: these three are its only control characters. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * The generic target's signature: `sha256=` + hex HMAC-SHA256 with the webhook's secret over
 * `{timestamp}.{body}` (the timestamp header, a dot, the raw body bytes).
 */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** The request of one attempt; `now` becomes the generic target's timestamp. */
export function buildRequest(
  config: Pick<Config, 'WEBHOOK_TELEGRAM_URL'>,
  target: TargetConfig,
  delivery: { deliveryId: string; event: string; payload: WebhookPayload },
  now: Date,
): DeliveryRequest {
  const json = { 'content-type': 'application/json', 'user-agent': 'Flagwave-Webhook/1' }
  const text = messageText(delivery.event, delivery.payload)
  switch (target.kind) {
    case 'Discord':
      // Mentions are never parsed: a team called "@everyone" must not ping a server.
      return { url: target.url, headers: json, body: JSON.stringify({ content: text.slice(0, 2000), allowed_mentions: { parse: [] } }) }
    case 'Slack':
      return { url: target.url, headers: json, body: JSON.stringify({ text: slackEscape(text) }) }
    case 'Telegram':
      return {
        url: `${config.WEBHOOK_TELEGRAM_URL.replace(/\/+$/, '')}/bot${target.secret}/sendMessage`,
        headers: json,
        body: JSON.stringify({ chat_id: target.chatId, text: text.slice(0, 4096), disable_web_page_preview: true }),
      }
    case 'Generic': {
      const timestamp = String(Math.floor(now.getTime() / 1000))
      const body = JSON.stringify({ id: delivery.deliveryId, event: delivery.event, timestamp: Number(timestamp), data: delivery.payload })
      return {
        url: target.url,
        headers: {
          ...json,
          'x-flagwave-event': delivery.event,
          'x-flagwave-delivery': delivery.deliveryId,
          'x-flagwave-timestamp': timestamp,
          'x-flagwave-signature': signature(target.secret, timestamp, body),
        },
        body,
      }
    }
  }
}
