/** Pure parts of the webhooks (docs/webhooks.md): backoff with jitter, the generic signature, each target's request. */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { retryDelayMs } from '../../server/src/domain/webhooks/deliver.js'
import { buildRequest, signature } from '../../server/src/domain/webhooks/targets.js'

const config = { WEBHOOK_RETRY_BASE_MS: 1000 } as Parameters<typeof retryDelayMs>[0]

describe('retry delay', () => {
  it('doubles per attempt, capped at an hour, with 50–100 % jitter', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(config, n, 1))).toEqual([1000, 2000, 4000, 8000])
    expect([1, 2, 3, 4].map((n) => retryDelayMs(config, n, 0))).toEqual([500, 1000, 2000, 4000])
    expect(retryDelayMs(config, 40, 1)).toBe(3_600_000)
    for (let i = 0; i < 100; i++) {
      const d = retryDelayMs(config, 5)
      expect(d).toBeGreaterThanOrEqual(8000)
      expect(d).toBeLessThanOrEqual(16000)
    }
  })
})

describe('generic signature', () => {
  it('is sha256= and the hex HMAC-SHA256 of "{timestamp}.{body}" with the secret', () => {
    const body = '{"id":"x","event":"test"}'
    expect(signature('whsec_k', '1700000000', body)).toBe(`sha256=${createHmac('sha256', 'whsec_k').update(`1700000000.${body}`).digest('hex')}`)
    expect(signature('whsec_k', '1700000001', body)).not.toBe(signature('whsec_k', '1700000000', body))
  })

  it('signs the exact body sent, with the timestamp and delivery id in headers', () => {
    const payload = { game: { id: 1, title: 'G' }, time: '2026-01-01T00:00:00.000Z', team: 'T', challenge: { id: 2, title: 'C' } }
    const req = buildRequest({ WEBHOOK_TELEGRAM_URL: 'https://api.telegram.org' }, { kind: 'Generic', url: 'https://h/x', secret: 's', chatId: '' }, { deliveryId: 'd-1', event: 'solve', payload }, new Date(1_700_000_000_500))
    expect(req.headers['x-flagwave-timestamp']).toBe('1700000000')
    expect(req.headers['x-flagwave-delivery']).toBe('d-1')
    expect(req.headers['x-flagwave-signature']).toBe(signature('s', '1700000000', req.body))
    expect(JSON.parse(req.body)).toEqual({ id: 'd-1', event: 'solve', timestamp: 1700000000, data: payload })
  })

  it('puts the Telegram token in the bot API path under the configured base', () => {
    const req = buildRequest({ WEBHOOK_TELEGRAM_URL: 'http://127.0.0.1:9/' }, { kind: 'Telegram', url: '', secret: '1:abc', chatId: '@news' }, { deliveryId: 'd', event: 'gameStart', payload: { game: { id: 1, title: 'G' }, time: '' } }, new Date())
    expect(req.url).toBe('http://127.0.0.1:9/bot1:abc/sendMessage')
    expect(JSON.parse(req.body)).toEqual({ chat_id: '@news', text: '[G] 🚩 比赛开始了', disable_web_page_preview: true })
  })
})
