/**
 * The freeze hook (docs/webhooks.md#freeze): every solve and blood delivery passes through
 * `heldUntil` when a sender claims it. A date holds the delivery until then (it is not an
 * attempt); null sends it now.
 *
 * The scoreboard freeze (docs/scoring.md#freeze) holds a solve or blood whose `time` falls on
 * or after the freeze while the board is frozen (freezeHold.ts, an hour at a time); the unfreeze
 * makes the held rows due at once (domain/games/freezeCommands.ts). Claimed rows carry the game
 * row, so the freeze's columns come with it.
 */
import type { WebhookPayload } from './targets.js'
import { webhookHeldUntil } from '../games/freezeHold.js'

export interface HoldInput {
  event: string
  payload: WebhookPayload
  game: { id: number; start: Date; end: Date; freezeTime?: Date | null; unfrozenAt?: Date | null }
}

export function heldUntil(delivery: HoldInput, now: Date): Date | null {
  if (delivery.event !== 'solve' && delivery.event !== 'blood') return null
  const time = new Date(String((delivery.payload as { time?: unknown }).time ?? ''))
  if (Number.isNaN(time.getTime())) return null
  return webhookHeldUntil({ freezeTime: delivery.game.freezeTime ?? null, unfrozenAt: delivery.game.unfrozenAt ?? null }, time, now)
}
