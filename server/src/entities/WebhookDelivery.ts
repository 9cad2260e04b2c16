import { defineEntity, p } from '@mikro-orm/core'
import { WebhookDeliveryStatus } from '@flagwave/shared/enums'
import { Webhook } from './Webhook.js'

/**
 * One event to one webhook: the durable outbox and the delivery log in one row
 * (docs/webhooks.md#outbox). Rows are written in the transaction of the event that causes them
 * (domain/webhooks/outbox.ts) and claimed with `FOR UPDATE SKIP LOCKED`. `nextAttemptAt` is when
 * the row is due: the next retry of a Pending row, the end of the lease of a Sending one (a
 * sender that died is replaced then).
 */
export const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.bigint('number').primary(),
    /** The idempotency id receivers dedupe on; the same for every attempt of the delivery. */
    deliveryId: p.uuid().unique(),
    webhook: () => p.manyToOne(Webhook).deleteRule('cascade'),
    gameId: p.integer(),
    event: p.text(),
    payload: p.json<Record<string, unknown>>(),
    /** Game start and end: `{event}:{epoch ms}`, unique per webhook, so every node may try to insert it. */
    dedupeKey: p.text().nullable(),
    status: p.enum(WebhookDeliveryStatus).default('Pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime(),
    lastAttemptAt: p.datetime().nullable(),
    responseCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(),
    deliveredAt: p.datetime().nullable(),
  },
  indexes: [
    { name: 'webhook_deliveries_due_idx', properties: ['nextAttemptAt'], where: { status: { $in: ['Pending', 'Sending'] } } },
    { properties: ['webhook', 'id'] },
  ],
  uniques: [{ properties: ['webhook', 'dedupeKey'] }],
})
export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery)
