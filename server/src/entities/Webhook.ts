import { defineEntity, p } from '@mikro-orm/core'
import { WebhookKind } from '@flagwave/shared/enums'
import { Game } from './Game.js'

/**
 * A game's webhook (docs/webhooks.md): where events of the game are announced. `secret` is the
 * generic target's HMAC key or the Telegram bot token; Discord and Slack carry theirs in `url`.
 * Only the edit routes (Admin) ever show these columns.
 */
export const WebhookSchema = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade').index(),
    name: p.text(),
    kind: p.enum(WebhookKind),
    /** Discord, Slack, Generic: the target URL. Telegram: empty (the bot API's base is WEBHOOK_TELEGRAM_URL). */
    url: p.text().default(''),
    secret: p.text().default(''),
    /** Telegram's chat id (or @channel). */
    chatId: p.text().default(''),
    events: p.array(),
    enabled: p.boolean().default(true),
    /** Allow a target that resolves to a loopback, private, link-local … address (docs/webhooks.md#ssrf). */
    allowPrivate: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** The last change: a game start or end before it is not announced (the subscription did not exist yet). */
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
})
export class Webhook extends WebhookSchema.class {}
WebhookSchema.setClass(Webhook)
