/**
 * Sending what the outbox holds (docs/webhooks.md#outbox). A sender claims due rows with
 * `FOR UPDATE SKIP LOCKED` and, in the same short transaction, marks them `Sending`, counts the
 * attempt and sets their due time to the end of a lease; then it sends, outside any transaction,
 * and records the outcome only if the row is still its own claim (same attempt, still Sending).
 * So two nodes never send the same attempt at once, a sender that dies mid-request is replaced
 * when its lease ends (the receiver may then see the delivery id twice: at least once), and no
 * database connection is held while a slow target answers.
 */
import http from 'node:http'
import https from 'node:https'
import type pg from 'pg'
import type { WebhookKind } from '@flagwave/shared/enums'
import type { Config } from '../../config.js'
import { resolveTarget, TargetRefused } from '../../lib/ssrf.js'
import { buildRequest, type WebhookPayload } from './targets.js'
import { heldUntil } from './hold.js'

export interface ClaimedDelivery {
  id: number
  deliveryId: string
  event: string
  payload: WebhookPayload
  attempts: number
  kind: WebhookKind
  url: string
  secret: string
  chatId: string
  allowPrivate: boolean
  game: { id: number; start: Date; end: Date; freezeTime: Date | null; unfrozenAt: Date | null }
}

/** Settings a sender needs (from Config). */
export type SenderConfig = Pick<
  Config,
  | 'WEBHOOK_TIMEOUT_MS'
  | 'WEBHOOK_MAX_ATTEMPTS'
  | 'WEBHOOK_RETRY_BASE_MS'
  | 'WEBHOOK_ALLOW_PRIVATE'
  | 'WEBHOOK_DISCORD_URL'
  | 'WEBHOOK_SLACK_URL'
  | 'WEBHOOK_TELEGRAM_URL'
>

/**
 * How long a claim is exclusive: an attempt (resolving included) ends within WEBHOOK_TIMEOUT_MS,
 * so twice that plus 5 s leaves room for recording the outcome; only a sender that died leaves a
 * claim to expire.
 */
const leaseMs = (config: SenderConfig) => 2 * config.WEBHOOK_TIMEOUT_MS + 5_000

const CLAIM_SQL = `
  with due as (
    select id from webhook_deliveries
     where status in ('Pending', 'Sending') and next_attempt_at <= now()
     order by next_attempt_at, id
     for update skip locked
     limit $1
  ), claimed as (
    update webhook_deliveries d
       set status = 'Sending', attempts = d.attempts + 1, last_attempt_at = now(),
           next_attempt_at = now() + $2 * interval '1 millisecond'
      from due where d.id = due.id
    returning d.*
  )
  select c.id::float8 as id, c.delivery_id, c.event, c.payload, c.attempts, w.kind, w.url, w.secret, w.chat_id, w.allow_private,
         g.id as game_id, g.start, g."end", g.freeze_time, g.unfrozen_at
    from claimed c join webhooks w on w.id = c.webhook_id join games g on g.id = c.game_id`

/** Claim up to `limit` due deliveries (held ones go back to wait, uncounted). */
export async function claimDeliveries(pool: pg.Pool, config: SenderConfig, limit: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return []
  const rows = (await pool.query(CLAIM_SQL, [limit, leaseMs(config)])).rows as Record<string, any>[]
  const claimed: ClaimedDelivery[] = rows.map((r) => ({
    id: r.id,
    deliveryId: r.delivery_id,
    event: r.event,
    payload: r.payload,
    attempts: r.attempts,
    kind: r.kind,
    url: r.url,
    secret: r.secret,
    chatId: r.chat_id,
    allowPrivate: r.allow_private,
    game: { id: r.game_id, start: r.start, end: r.end, freezeTime: r.freeze_time ? new Date(r.freeze_time) : null, unfrozenAt: r.unfrozen_at ? new Date(r.unfrozen_at) : null },
  }))
  const now = new Date()
  const out: ClaimedDelivery[] = []
  for (const d of claimed) {
    const until = heldUntil(d, now)
    if (until && until > now) {
      await pool.query(
        `update webhook_deliveries set status = 'Pending', attempts = attempts - 1, next_attempt_at = $3 where id = $1 and attempts = $2 and status = 'Sending'`,
        [d.id, d.attempts, until],
      )
    } else out.push(d)
  }
  return out
}

export interface AttemptOutcome {
  /** Delivered: a 2xx answer. */
  ok: boolean
  /** Worth another attempt (network errors, timeouts, 408, 429, 5xx). */
  retry: boolean
  responseCode: number | null
  error: string | null
  /** A delay the target asked for (Retry-After, Discord's retry_after), in ms. */
  retryAfterMs?: number
  /** The node stopped mid-request: due again at once, for any node. */
  interrupted?: boolean
}

/** Chat services' base URLs are the operator's: their hosts may be private (a relay, a local test receiver). */
const operatorHost = (kind: WebhookKind) => kind !== 'Generic'

/** Whether `url` is allowed for a webhook of `kind` (chat services: below the configured base). */
export function belowBase(config: SenderConfig, kind: WebhookKind, url: string): boolean {
  const base = kind === 'Discord' ? config.WEBHOOK_DISCORD_URL : kind === 'Slack' ? config.WEBHOOK_SLACK_URL : null
  return base === null || (url.startsWith(base) && url.length > base.length)
}

/** Short, single-line and free of the target's secrets, for the delivery log. */
const clip = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 500)

/** One attempt: resolve and check the target, connect to the checked address, send, read a bounded answer. */
export async function attempt(config: SenderConfig, d: ClaimedDelivery, signal: AbortSignal): Promise<AttemptOutcome> {
  const request = buildRequest(config, d, { deliveryId: d.deliveryId, event: d.event, payload: d.payload }, new Date())
  if (!belowBase(config, d.kind, request.url)) return { ok: false, retry: false, responseCode: null, error: `target is not below the configured ${d.kind} base URL` }
  const deadline = Date.now() + config.WEBHOOK_TIMEOUT_MS
  let target
  try {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TargetRefused('the host does not resolve in time')), config.WEBHOOK_TIMEOUT_MS)
    })
    target = await Promise.race([resolveTarget(request.url, d.allowPrivate || config.WEBHOOK_ALLOW_PRIVATE || operatorHost(d.kind)), late]).finally(() =>
      clearTimeout(timer),
    )
  } catch (err) {
    if (err instanceof TargetRefused) return { ok: false, retry: /does not resolve/.test(err.message), responseCode: null, error: `refused: ${err.message}` }
    throw err
  }
  const client = target.url.protocol === 'https:' ? https : http
  return new Promise<AttemptOutcome>((resolve) => {
    const req = client.request(
      target.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: target.lookup,
        signal,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          if (size < 4096) chunks.push(chunk)
          size += chunk.length
        })
        res.on('error', () => undefined)
        res.on('end', () => {
          const status = res.statusCode ?? 0
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 4096)
          const ok = status >= 200 && status < 300
          let retryAfterMs: number | undefined
          const header = Number(res.headers['retry-after'])
          if (Number.isFinite(header) && header >= 0) retryAfterMs = header * 1000
          if (status === 429 && retryAfterMs === undefined) {
            const discord = /"retry_after"\s*:\s*([0-9.]+)/.exec(text)
            if (discord) retryAfterMs = Number(discord[1]) * 1000
          }
          resolve({
            ok,
            retry: !ok && (status >= 500 || status === 408 || status === 429),
            responseCode: status,
            error: ok ? null : clip(`HTTP ${status} ${text}`),
            retryAfterMs,
          })
        })
      },
    )
    // One deadline for connecting, sending and reading the answer (a target dripping bytes included).
    const timer = setTimeout(() => req.destroy(new Error(`no complete answer within ${config.WEBHOOK_TIMEOUT_MS} ms`)), Math.max(0, deadline - Date.now()))
    req.on('close', () => clearTimeout(timer))
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (signal.aborted) resolve({ ok: false, retry: true, responseCode: null, error: 'interrupted: the sending node stopped', interrupted: true })
      else resolve({ ok: false, retry: true, responseCode: null, error: clip(`${err.code ?? ''} ${err.message}`) })
    })
    req.end(request.body)
  })
}

/** Exponential backoff with jitter: base · 2^(attempt−1), capped at an hour, then a random 50–100 % of it. */
export function retryDelayMs(config: SenderConfig, attempts: number, random = Math.random()): number {
  const ceiling = Math.min(3_600_000, config.WEBHOOK_RETRY_BASE_MS * 2 ** Math.min(30, attempts - 1))
  return Math.round(ceiling * (0.5 + random / 2))
}

/** Record an attempt's outcome, if the claim is still ours. */
export async function recordOutcome(pool: pg.Pool, config: SenderConfig, d: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
  const giveUp = !outcome.ok && (!outcome.retry || d.attempts >= config.WEBHOOK_MAX_ATTEMPTS)
  const status = outcome.ok ? 'Delivered' : giveUp ? 'Failed' : 'Pending'
  const delay = outcome.interrupted ? 0 : Math.min(3_600_000, Math.max(retryDelayMs(config, d.attempts), outcome.retryAfterMs ?? 0))
  await pool.query(
    `update webhook_deliveries
        set status = $3, response_code = $4, last_error = $5,
            delivered_at = case when $3 = 'Delivered' then now() end,
            next_attempt_at = now() + $6 * interval '1 millisecond'
      where id = $1 and attempts = $2 and status = 'Sending'`,
    [d.id, d.attempts, status, outcome.responseCode, outcome.error, status === 'Pending' ? delay : 0],
  )
}
