/** Webhooks, their delivery log and the CTFtime feed (docs/webhooks.md). */
import { toWireDate } from '@flagwave/shared/format'
import type { WebhookEvent } from '@flagwave/shared/enums'
import type { CtftimeFeed, WebhookDeliveryModel, WebhookModel } from '@flagwave/shared/schemas/webhooks'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { Webhook } from '../entities/Webhook.js'
import type { WebhookDelivery } from '../entities/WebhookDelivery.js'

export function presentWebhook(w: Webhook): WebhookModel {
  return {
    id: w.id,
    name: w.name,
    kind: w.kind,
    url: w.url,
    secret: w.secret,
    chatId: w.chatId,
    events: w.events as WebhookEvent[],
    enabled: w.enabled,
    allowPrivate: w.allowPrivate,
    createdAt: toWireDate(w.createdAt),
  }
}

const date = (d: Date | null | undefined) => (d ? toWireDate(d) : null)

export function presentDelivery(d: WebhookDelivery): WebhookDeliveryModel {
  const waiting = d.status === 'Pending' || d.status === 'Sending'
  return {
    id: d.id,
    deliveryId: d.deliveryId,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    responseCode: d.responseCode ?? null,
    lastError: d.lastError ?? null,
    createdAt: toWireDate(d.createdAt),
    lastAttemptAt: date(d.lastAttemptAt),
    nextAttemptAt: waiting ? toWireDate(d.nextAttemptAt) : null,
    deliveredAt: date(d.deliveredAt),
  }
}

const seconds = (wire: string) => Math.floor(Date.parse(wire) / 1000)

/**
 * CTFtime's scoreboard import: tasks by title (a title two challenges share gets ` #id`), each
 * team's solved tasks with points and solve time (Unix seconds), `lastAccept` its last solve.
 */
export function presentCtftimeFeed(model: ScoreboardModel): CtftimeFeed {
  const challenges = Object.values(model.challenges).flat()
  const counts = new Map<string, number>()
  for (const c of challenges) counts.set(c.title, (counts.get(c.title) ?? 0) + 1)
  const names = new Map(challenges.map((c) => [c.id, counts.get(c.title)! > 1 ? `${c.title} #${c.id}` : c.title]))
  return {
    tasks: challenges.map((c) => names.get(c.id)!),
    standings: model.items.map((item) => {
      const taskStats: CtftimeFeed['standings'][number]['taskStats'] = {}
      let lastAccept = 0
      for (const solve of item.challenges) {
        const name = names.get(solve.id)
        if (!name || solve.time === null || solve.type === 'Unaccepted') continue
        const time = seconds(solve.time)
        taskStats[name] = { points: solve.score, time }
        lastAccept = Math.max(lastAccept, time)
      }
      return { pos: item.rank, team: item.name, score: item.score, taskStats, lastAccept }
    }),
  }
}
