/**
 * Local receivers for webhook tests. Discord, Slack and Telegram cannot be reached from the test
 * machine, so these node:http servers speak their request formats instead (the server's
 * WEBHOOK_DISCORD_URL, WEBHOOK_SLACK_URL and WEBHOOK_TELEGRAM_URL point at them):
 *
 * - Discord: `POST /api/webhooks/{id}/{token}` with `{ content, allowed_mentions }` → 204;
 * - Slack: `POST /services/{T}/{B}/{X}` with `{ text }` → 200 `ok`;
 * - Telegram: `POST /bot{token}/sendMessage` with `{ chat_id, text }` → 200 `{ ok: true, result }`;
 * - generic: any path, the signed JSON of docs/webhooks.md#generic-target → 200.
 *
 * A request that does not match its service's format is answered as the service would (400/404)
 * and recorded with `valid: false`. `respond` lets a test fail, delay or hang answers.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  raw: string
  body: any
  valid: boolean
  at: number
}

export type Kind = 'discord' | 'slack' | 'telegram' | 'generic'

/** What to answer; `null` = the service's normal answer; `'hang'` = never answer. */
export type Respond = (req: Received, index: number) => { status: number; body?: string; headers?: Record<string, string> } | 'hang' | null

export interface Receiver {
  url: string
  port: number
  received: Received[]
  respond: Respond
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

function normal(kind: Kind, r: Received): { status: number; body?: string; headers?: Record<string, string> } {
  const json = { 'content-type': 'application/json' }
  switch (kind) {
    case 'discord':
      if (!/^\/api\/webhooks\/\d+\/[\w-]+$/.test(r.path.split('?')[0]!)) return { status: 404, body: '{"message": "Unknown Webhook", "code": 10015}', headers: json }
      if (typeof r.body?.content !== 'string' || r.body.content.length === 0 || r.body.content.length > 2000) return { status: 400, body: '{"message": "Cannot send an empty message", "code": 50006}', headers: json }
      return { status: 204 }
    case 'slack':
      if (!/^\/services\/\w+\/\w+\/\w+$/.test(r.path)) return { status: 404, body: 'no_service' }
      if (typeof r.body?.text !== 'string' || r.body.text.length === 0) return { status: 400, body: 'no_text' }
      return { status: 200, body: 'ok' }
    case 'telegram': {
      if (!/^\/bot\d+:[\w-]+\/sendMessage$/.test(r.path)) return { status: 404, body: '{"ok":false,"error_code":404,"description":"Not Found"}', headers: json }
      if (r.body?.chat_id === undefined || typeof r.body?.text !== 'string') return { status: 400, body: '{"ok":false,"error_code":400,"description":"Bad Request: message text is empty"}', headers: json }
      return { status: 200, body: JSON.stringify({ ok: true, result: { message_id: 1, chat: { id: r.body.chat_id }, text: r.body.text } }), headers: json }
    }
    case 'generic':
      return { status: 200, body: '{"received":true}', headers: json }
  }
}

export async function startReceiver(kind: Kind, respond: Respond = () => null): Promise<Receiver> {
  const received: Received[] = []
  const waiters: { n: number; resolve: () => void }[] = []
  const hanging = new Set<http.ServerResponse>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: any = null
      try {
        body = JSON.parse(raw)
      } catch {}
      const entry: Received = { path: req.url ?? '', headers: req.headers, raw, body, valid: req.method === 'POST' && /application\/json/.test(req.headers['content-type'] ?? ''), at: Date.now() }
      const index = received.length
      received.push(entry)
      const answer = receiver.respond(entry, index) ?? normal(kind, entry)
      if (answer === 'hang') {
        hanging.add(res)
      } else {
        if (answer.status >= 400 && receiver.respond(entry, index) === null) entry.valid = false
        res.writeHead(answer.status, answer.headers)
        res.end(answer.body)
      }
      for (const w of [...waiters]) if (received.length >= w.n) w.resolve()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    respond,
    waitFor(n, timeoutMs = 15_000) {
      if (received.length >= n) return Promise.resolve(received)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${kind} receiver: ${received.length} of ${n} requests after ${timeoutMs} ms`)), timeoutMs)
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer)
            resolve(received)
          },
        })
      })
    },
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return receiver
}
