/**
 * A game's webhooks and their delivery log (docs/webhooks.md): the commands behind
 * `/api/edit/games/{id}/webhooks`. Targets are checked by policy.ts; deliveries are written by
 * outbox.ts and sent by the webhooks worker.
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { WebhookInput } from '@flagwave/shared/schemas/webhooks'
import type { z } from 'zod'
import { Webhook } from '../../entities/Webhook.js'
import { WebhookDelivery } from '../../entities/WebhookDelivery.js'
import { notFound } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { findGame } from '../games/games.js'
import { checkTarget } from './policy.js'
import type { WebhookPayload } from './targets.js'

type Input = z.output<typeof WebhookInput>

export async function listWebhooks(em: EntityManager, gameId: number): Promise<Webhook[]> {
  await findGame(em, gameId)
  return em.find(Webhook, { game: gameId }, { orderBy: { id: 'asc' } })
}

/** A webhook of the game, or 404 (another game's webhook too). */
async function findWebhook(em: EntityManager, gameId: number, webhookId: number): Promise<Webhook> {
  await findGame(em, gameId)
  const webhook = await em.findOne(Webhook, { id: webhookId, game: gameId })
  if (!webhook) throw notFound('Webhook 未找到')
  return webhook
}

export async function createWebhook(scope: Scope, actor: Actor, gameId: number, input: Input): Promise<Webhook> {
  const game = await findGame(scope.em, gameId)
  const target = await checkTarget(scope.services.config, input, null)
  const webhook = scope.em.create(Webhook, {
    game,
    name: input.name,
    kind: input.kind,
    ...target,
    events: input.events,
    enabled: input.enabled,
    allowPrivate: input.allowPrivate,
  })
  await scope.em.flush()
  await scope.services.audit.success(actor, `添加了比赛 #${gameId} 的 Webhook #${webhook.id}（${input.kind}）`)
  return webhook
}

export async function updateWebhook(scope: Scope, actor: Actor, gameId: number, webhookId: number, input: Input): Promise<Webhook> {
  const webhook = await findWebhook(scope.em, gameId, webhookId)
  const target = await checkTarget(scope.services.config, input, webhook)
  Object.assign(webhook, { name: input.name, kind: input.kind, ...target, events: input.events, enabled: input.enabled, allowPrivate: input.allowPrivate })
  // A change re-arms game start and end from now on (outbox.ts): the subscription is this new.
  webhook.updatedAt = new Date()
  await scope.em.flush()
  await scope.services.audit.success(actor, `更新了比赛 #${gameId} 的 Webhook #${webhook.id}`)
  return webhook
}

/** Deletes the webhook with its delivery log and whatever it still had to send. */
export async function deleteWebhook(scope: Scope, actor: Actor, gameId: number, webhookId: number): Promise<void> {
  const webhook = await findWebhook(scope.em, gameId, webhookId)
  await scope.em.remove(webhook).flush()
  await scope.services.audit.success(actor, `删除了比赛 #${gameId} 的 Webhook #${webhookId}`)
}

/** "Send test": a `test` delivery through the outbox, like any other (disabled webhooks included). */
export async function sendTest(scope: Scope, actor: Actor, gameId: number, webhookId: number): Promise<WebhookDelivery> {
  const webhook = await findWebhook(scope.em, gameId, webhookId)
  const game = await findGame(scope.em, gameId)
  const now = new Date()
  const payload: WebhookPayload = { game: { id: game.id, title: game.title }, time: now.toISOString() }
  const delivery = scope.em.create(WebhookDelivery, {
    deliveryId: randomUUID(),
    webhook,
    gameId,
    event: 'test',
    payload: payload as unknown as Record<string, unknown>,
    status: 'Pending',
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
  })
  await scope.em.flush()
  await scope.services.audit.success(actor, `测试了比赛 #${gameId} 的 Webhook #${webhookId}`)
  return delivery
}

/** A webhook's deliveries, newest first. */
export async function listDeliveries(em: EntityManager, gameId: number, webhookId: number, count: number, skip: number): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
  const webhook = await findWebhook(em, gameId, webhookId)
  const [deliveries, total] = await em.findAndCount(WebhookDelivery, { webhook }, { orderBy: { id: 'desc' }, limit: Math.min(Math.max(count, 0), 100), offset: Math.max(0, skip) })
  return { deliveries, total }
}
