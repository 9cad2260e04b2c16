/**
 * Flagwave additions (docs/webhooks.md): a game's webhooks and their delivery log, the CTFtime
 * switch (Admin, beside the other edit routes), and the public CTFtime feed.
 */
import { z } from 'zod'
import { CtftimeFeed, CtftimeSetting, WebhookDeliveryModel, WebhookInput, WebhookModel } from '@flagwave/shared/schemas/webhooks'
import { arrayResponseOf, pagingQuery, type ArrayResponse } from '@flagwave/shared/schemas/common'
import { intParam, route } from '../http/route.js'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, sendTest, updateWebhook } from '../domain/webhooks/webhooks.js'
import { ctftimeFeed, ctftimeSetting, setCtftimeFeed } from '../domain/scoreboard/ctftime.js'
import { presentDelivery, presentWebhook } from '../presenters/webhooks.js'

const gameParams = z.object({ id: intParam })
const webhookParams = z.object({ id: intParam, webhookId: intParam })

export const webhookRoutes = [
  route({
    method: 'GET',
    path: '/api/edit/games/:id/webhooks',
    role: 'Admin',
    params: gameParams,
    response: z.array(WebhookModel),
    summary: "The game's webhooks, secrets included (Flagwave)",
    handler: async (_ctx, { params, scope }) => (await listWebhooks(scope.em, params.id)).map(presentWebhook),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/webhooks',
    role: 'Admin',
    params: gameParams,
    body: WebhookInput,
    response: WebhookModel,
    summary: 'Add a webhook (Discord, Slack, Telegram or a signed generic JSON target) (Flagwave)',
    handler: async (_ctx, { params, body, actor, scope }) => presentWebhook(await createWebhook(scope, actor, params.id, body)),
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/webhooks/:webhookId',
    role: 'Admin',
    params: webhookParams,
    body: WebhookInput,
    response: WebhookModel,
    summary: 'Change a webhook (Flagwave)',
    handler: async (_ctx, { params, body, actor, scope }) => presentWebhook(await updateWebhook(scope, actor, params.id, params.webhookId, body)),
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/webhooks/:webhookId',
    role: 'Admin',
    params: webhookParams,
    response: 'empty',
    summary: 'Delete a webhook with its delivery log (Flagwave)',
    handler: async (_ctx, { params, actor, scope }) => deleteWebhook(scope, actor, params.id, params.webhookId),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/webhooks/:webhookId/test',
    role: 'Admin',
    params: webhookParams,
    response: WebhookDeliveryModel,
    summary: 'Queue a test delivery (Flagwave)',
    handler: async (_ctx, { params, actor, scope }) => presentDelivery(await sendTest(scope, actor, params.id, params.webhookId)),
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/webhooks/:webhookId/deliveries',
    role: 'Admin',
    params: webhookParams,
    query: pagingQuery(20),
    response: arrayResponseOf(WebhookDeliveryModel),
    summary: "A webhook's delivery log, newest first (Flagwave)",
    handler: async (_ctx, { params, query, scope }): Promise<ArrayResponse<WebhookDeliveryModel>> => {
      const { deliveries, total } = await listDeliveries(scope.em, params.id, params.webhookId, query.count, query.skip)
      const data = deliveries.map(presentDelivery)
      return { data, length: data.length, total }
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/ctftime',
    role: 'Admin',
    params: gameParams,
    response: CtftimeSetting,
    summary: 'Whether the CTFtime feed is on (Flagwave)',
    handler: async (_ctx, { params, scope }) => ({ enabled: await ctftimeSetting(scope.em, params.id) }),
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/ctftime',
    role: 'Admin',
    params: gameParams,
    body: CtftimeSetting,
    response: CtftimeSetting,
    summary: 'Switch the CTFtime feed on or off (Flagwave)',
    handler: async (_ctx, { params, body, actor, scope }) => ({ enabled: await setCtftimeFeed(scope, actor, params.id, body.enabled) }),
  }),
]

/** The public feed: with the game routes (`/api/game/:id/...`). */
export const ctftimeRoutes = [
  route({
    method: 'GET',
    path: '/api/game/:id/ctftime',
    params: gameParams,
    response: CtftimeFeed,
    summary: 'The scoreboard in CTFtime format, when the organiser switched it on (Flagwave)',
    handler: async (_ctx, { params, scope }) => ctftimeFeed(scope.em, scope.services, params.id),
  }),
]
