/**
 * Webhooks, their delivery log and the CTFtime feed (docs/webhooks.md): Flagwave additions,
 * outside the GZ::CTF contract.
 */
import { z } from 'zod'
import { WebhookDeliveryStatus, WebhookEvent, WebhookKind } from '../enums.js'
import { intOut, requiredString, wireBool, wireDateOut } from './fields.js'

const WEBHOOK_NAME_MAX = 64
const WEBHOOK_URL_MAX = 2048

/**
 * Request of `POST /api/edit/games/{id}/webhooks` and `PUT …/webhooks/{webhookId}`. `secret` is the
 * Telegram bot token (empty on update = keep the current one); the generic target's HMAC secret
 * is made by the server and renewed with `rotateSecret`. Kind-specific rules (a URL for Discord,
 * Slack and Generic, a token and chat id for Telegram) are checked by the server.
 */
export const WebhookInput = z.object({
  name: requiredString('名称是必需的').max(WEBHOOK_NAME_MAX, '名称过长'),
  kind: z.enum(WebhookKind, { error: '未知的 Webhook 类型' }),
  url: z.string().trim().max(WEBHOOK_URL_MAX, 'URL 过长').default(''),
  secret: z.string().trim().max(256, '密钥过长').default(''),
  chatId: z.string().trim().max(128, 'Chat ID 过长').default(''),
  events: z
    .array(z.enum(WebhookEvent, { error: '未知的事件' }))
    .max(WebhookEvent.length)
    .default([])
    .transform((list) => [...new Set(list)]),
  enabled: wireBool().default(true),
  allowPrivate: wireBool().default(false),
  rotateSecret: wireBool().default(false),
})
export type WebhookInput = z.input<typeof WebhookInput>

/** A webhook as the game editor sees it, secrets included (Admin only). */
export const WebhookModel = z.object({
  id: intOut(),
  name: z.string(),
  kind: z.enum(WebhookKind),
  url: z.string(),
  secret: z.string(),
  chatId: z.string(),
  events: z.array(z.enum(WebhookEvent)),
  enabled: z.boolean(),
  allowPrivate: z.boolean(),
  createdAt: wireDateOut(),
})
export type WebhookModel = z.infer<typeof WebhookModel>

/** One row of a webhook's delivery log. */
export const WebhookDeliveryModel = z.object({
  id: intOut(),
  deliveryId: z.string(),
  event: z.string(),
  status: z.enum(WebhookDeliveryStatus),
  attempts: intOut(),
  responseCode: intOut().nullable(),
  lastError: z.string().nullable(),
  createdAt: wireDateOut(),
  lastAttemptAt: wireDateOut().nullable(),
  nextAttemptAt: wireDateOut().nullable(),
  deliveredAt: wireDateOut().nullable(),
})
export type WebhookDeliveryModel = z.infer<typeof WebhookDeliveryModel>

/** `GET`/`PUT /api/edit/games/{id}/ctftime`: whether the game's CTFtime feed is served. */
export const CtftimeSetting = z.object({ enabled: wireBool() })
export type CtftimeSetting = z.infer<typeof CtftimeSetting>

/** `GET /api/game/{id}/ctftime`: CTFtime's scoreboard import format. */
export const CtftimeFeed = z.object({
  tasks: z.array(z.string()),
  standings: z.array(
    z.object({
      pos: intOut(),
      team: z.string(),
      score: intOut(),
      taskStats: z.record(z.string(), z.object({ points: intOut(), time: intOut() })),
      lastAccept: intOut(),
    }),
  ),
})
export type CtftimeFeed = z.infer<typeof CtftimeFeed>
