/**
 * The freeze hook (docs/webhooks.md#freeze): every solve and blood delivery passes through
 * `heldUntil` when a sender claims it. A date holds the delivery until then (it is not an
 * attempt); null sends it now.
 *
 * No scoreboard freeze exists yet (issue 18). When it lands, this is the one place to change:
 * return the reveal time for a solve or blood whose `time` falls inside the game's freeze window
 * while the reveal is still ahead, and null otherwise. Claimed rows carry the game row, so the
 * freeze's columns come with it; a reveal moved earlier releases held rows at its new time only if
 * the reveal also sets their `next_attempt_at` (one update by game id), or at the old time.
 */
import type { WebhookPayload } from './targets.js'

export interface HoldInput {
  event: string
  payload: WebhookPayload
  game: { id: number; start: Date; end: Date }
}

export function heldUntil(delivery: HoldInput, _now: Date): Date | null {
  if (delivery.event !== 'solve' && delivery.event !== 'blood') return null
  return null
}
