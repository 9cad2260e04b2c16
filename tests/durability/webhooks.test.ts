/**
 * Webhook deliveries survive crashes (docs/webhooks.md#outbox). Deliveries are written with the
 * events that cause them on a node that sends nothing (WEBHOOK_CONCURRENCY=0); a sending node in
 * a child process claims them and is killed with SIGKILL while a local generic receiver holds its
 * request open; a new process on the same database sends everything: the interrupted delivery
 * again once its lease ends (same delivery id: at least once), the others exactly once, and no
 * row is left behind. A graceful stop hands an interrupted delivery back at once.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createGame } from '../support/factories/games.js'
import { startNodeProcess, type NodeProcess } from '../support/process.js'
import { startReceiver, type Receiver } from '../support/webhookReceivers.js'

let server: TestServer
let admin: ApiClient
let receiver: Receiver
const children: NodeProcess[] = []
const dirs: string[] = []
const query = async <T = any>(sql: string, params: unknown[] = []) => (await server.services.orm.em.fork().getConnection().execute(sql, params)) as T[]

async function sender(): Promise<NodeProcess> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-hooks-'))
  dirs.push(dataDir)
  const child = await startNodeProcess({
    DATABASE_URL: server.databaseUrl,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'error',
    REDIS_PREFIX: `flagwave-hooks-${randomBytes(4).toString('hex')}`,
    CHECKER_CONCURRENCY: '0',
    WEBHOOK_CONCURRENCY: '1',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_TIMEOUT_MS: '1500',
  })
  children.push(child)
  return child
}

beforeAll(async () => {
  receiver = await startReceiver('generic')
  server = await startTestServer({ env: { WEBHOOK_CONCURRENCY: '0' } })
  admin = await server.admin()
}, 120_000)
afterAll(async () => {
  for (const c of children) await c.kill9().catch(() => undefined)
  await server?.close()
  await receiver?.close()
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true })
})

describe('webhook outbox across crashes', () => {
  it('loses nothing when the sending node is killed mid-request', { timeout: 180_000 }, async () => {
    const game = await createGame(server, { title: 'Crash' })
    const hook = (await admin.post(`/api/edit/games/${game.id}/webhooks`, { name: 'g', kind: 'Generic', url: `${receiver.url}/crash`, events: ['notice'], allowPrivate: true })).body
    for (let i = 0; i < 5; i++) expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: `notice ${i}` })).status).toBe(200)
    // Written with the notices, on a node that sends nothing.
    const rows = await query<{ delivery_id: string; status: string }>('select delivery_id, status from webhook_deliveries where webhook_id = ? order by id', [hook.id])
    expect(rows.map((r) => r.status)).toEqual(['Pending', 'Pending', 'Pending', 'Pending', 'Pending'])

    receiver.respond = (_r, i) => (i === 0 ? 'hang' : null)
    const first = await sender()
    const [held] = await receiver.waitFor(1, 60_000)
    await first.kill9()
    const heldId = held!.headers['x-flagwave-delivery'] as string
    expect(await query('select status, attempts from webhook_deliveries where delivery_id = ?', [heldId])).toEqual([{ status: 'Sending', attempts: 1 }])

    await sender()
    await expect
      .poll(async () => (await query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where webhook_id = ? and status <> 'Delivered'`, [hook.id]))[0]!.n, {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(0)
    const seen = new Map<string, number>()
    for (const r of receiver.received) if (r.path === '/crash') seen.set(r.headers['x-flagwave-delivery'] as string, (seen.get(r.headers['x-flagwave-delivery'] as string) ?? 0) + 1)
    expect(new Set(seen.keys())).toEqual(new Set(rows.map((r) => r.delivery_id)))
    // The interrupted one came again under the same id; the others exactly once.
    for (const r of rows) expect(seen.get(r.delivery_id), r.delivery_id).toBe(r.delivery_id === heldId ? 2 : 1)
    const final = await query<{ delivery_id: string; attempts: number }>('select delivery_id, attempts from webhook_deliveries where webhook_id = ?', [hook.id])
    for (const r of final) expect(r.attempts).toBe(r.delivery_id === heldId ? 2 : 1)
  })

  it('a graceful stop hands the delivery in flight back at once', { timeout: 120_000 }, async () => {
    for (const c of children.splice(0)) await c.kill9()
    const game = await createGame(server, { title: 'Stop' })
    const hook = (await admin.post(`/api/edit/games/${game.id}/webhooks`, { name: 'g', kind: 'Generic', url: `${receiver.url}/stop`, events: ['notice'], allowPrivate: true })).body
    const before = receiver.received.length
    receiver.respond = (r) => (r.path === '/stop' && receiver.received.filter((x) => x.path === '/stop').length === 1 ? 'hang' : null)
    const node = await sender()
    expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'stopping' })).status).toBe(200)
    await receiver.waitFor(before + 1, 60_000)
    expect(await node.terminate()).toBe(0)
    const [row] = await query<{ status: string; attempts: number; last_error: string; due: boolean }>(
      'select status, attempts, last_error, next_attempt_at <= now() as due from webhook_deliveries where webhook_id = ?',
      [hook.id],
    )
    expect(row).toEqual({ status: 'Pending', attempts: 1, last_error: 'interrupted: the sending node stopped', due: true })
    await sender()
    await expect.poll(async () => (await query('select status, attempts from webhook_deliveries where webhook_id = ?', [hook.id]))[0], { timeout: 60_000, interval: 200 }).toEqual({ status: 'Delivered', attempts: 2 })
  })
})
