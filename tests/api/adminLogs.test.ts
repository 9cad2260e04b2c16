/**
 * The audit log (docs/compatibility.md#group-admin, #administration-shapes LogMessageModel): GET /api/admin/logs filtering,
 * ordering, paging and validation, and AuditLog.write never failing its caller.
 */
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { WIRE_DATE_PATTERN, toWireDate } from '@flagwave/shared/format'
import type { LogLevel, TaskStatus } from '@flagwave/shared/enums'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import type { ApiClient } from '../support/client.js'
import { LogEntry } from '../../server/src/entities/LogEntry.js'
import { AuditLog } from '../../server/src/domain/logs/audit.js'
import { Realtime } from '../../server/src/realtime/publish.js'
import type { Orm } from '../../server/src/db/orm.js'

let server: TestServer
let admin: ApiClient
const clients: Partial<Record<'User' | 'Monitor' | 'Banned', ApiClient>> = {}

interface Seed {
  time: Date
  level: LogLevel
  userName: string | null
  ip: string | null
  message: string
  status: TaskStatus | null
}

const BASE = Date.parse('2026-03-01T08:00:00.000Z')
/** 12 entries, one minute apart; entry i has level LEVELS[i % 4] and every third has no status. */
const LEVELS: LogLevel[] = ['Information', 'Warning', 'Error', 'Fatal']
const seeds: Seed[] = Array.from({ length: 12 }, (_, i) => ({
  time: new Date(BASE + i * 60_000 + (i === 5 ? 123 : 0)),
  level: LEVELS[i % 4],
  userName: i === 0 ? 'System' : `user${i}`,
  ip: i === 0 ? '' : `10.0.0.${i}`,
  message: `entry ${i}`,
  status: i % 3 === 0 ? null : i % 3 === 1 ? 'Success' : 'Failed',
}))
/** Newest first, as the endpoint answers. */
const newestFirst = [...seeds].reverse()

const wire = (s: Seed) => ({ time: toWireDate(s.time), name: s.userName, level: s.level, ip: s.ip, msg: s.message, status: s.status })

async function logCount(): Promise<number> {
  const rows = await server.services.orm.em.fork().getConnection().execute<{ n: string }[]>('select count(*) as n from logs')
  return Number(rows[0].n)
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
  for (const role of ['User', 'Monitor', 'Banned'] as const) clients[role] = (await createUser(server, { role })).client
})
afterAll(async () => {
  await server?.close()
})
beforeEach(async () => {
  const em = server.services.orm.em.fork()
  await em.getConnection().execute('delete from logs')
  for (const s of seeds) em.create(LogEntry, s)
  await em.flush()
})

describe('GET /api/admin/logs', () => {
  it('answers a bare array of LogMessageModel, newest first, 50 by default', async () => {
    const res = await admin.get('/api/admin/logs')
    expect(res.status).toBe(200)
    const entries = LogMessageModel.array().parse(res.body)
    expect(entries).toEqual(newestFirst.map(wire))
    for (const e of entries) expect(e.time).toMatch(WIRE_DATE_PATTERN)
    expect(entries.find((e) => e.msg === 'entry 5')?.time).toBe('2026-03-01T08:05:00.123+00:00')
    expect(entries.find((e) => e.msg === 'entry 0')).toEqual({ time: '2026-03-01T08:00:00+00:00', name: 'System', level: 'Information', ip: '', msg: 'entry 0', status: null })

    const em = server.services.orm.em.fork()
    for (let i = 0; i < 60; i++) em.create(LogEntry, { time: new Date(BASE - (i + 1) * 1000), level: 'Information', userName: 'System', ip: '', message: `old ${i}`, status: null })
    await em.flush()
    const page = await admin.get('/api/admin/logs?level=All&count=50&skip=0')
    expect(page.body).toHaveLength(50)
    expect(page.body[0].msg).toBe('entry 11')
  })

  it('filters by the exact stored level; All, absent and empty mean every level', async () => {
    for (const level of LEVELS) {
      const res = await admin.get(`/api/admin/logs?level=${level}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual(newestFirst.filter((s) => s.level === level).map(wire))
    }
    for (const query of ['?level=All', '', '?level=']) {
      expect((await admin.get(`/api/admin/logs${query}`)).body).toHaveLength(12)
    }
    // Exact comparison: neither other casing nor unknown names match anything.
    expect((await admin.get('/api/admin/logs?level=warning')).body).toEqual([])
    expect((await admin.get('/api/admin/logs?level=all')).body).toEqual([])
    expect((await admin.get('/api/admin/logs?level=Debug')).body).toEqual([])
  })

  it('pages with count and skip', async () => {
    expect((await admin.get('/api/admin/logs?count=3')).body).toEqual(newestFirst.slice(0, 3).map(wire))
    expect((await admin.get('/api/admin/logs?count=3&skip=3')).body).toEqual(newestFirst.slice(3, 6).map(wire))
    expect((await admin.get('/api/admin/logs?count=100&skip=10')).body).toEqual(newestFirst.slice(10).map(wire))
    expect((await admin.get('/api/admin/logs?count=5&skip=50')).body).toEqual([])
    expect((await admin.get('/api/admin/logs?count=0')).body).toEqual([])
    expect((await admin.get('/api/admin/logs?level=Warning&count=2&skip=1')).body).toEqual(newestFirst.filter((s) => s.level === 'Warning').slice(1, 3).map(wire))
    // Query names are matched case-insensitively.
    expect((await admin.get('/api/admin/logs?Count=2&SKIP=1')).body).toEqual(newestFirst.slice(1, 3).map(wire))
  })

  it('answers 400 for negative or non-integer count/skip', async () => {
    const cases: [string, string][] = [
      ['count=-1', 'The field count must not be negative.'],
      ['skip=-5', 'The field skip must not be negative.'],
      ['count=-2147483647&skip=0', 'The field count must not be negative.'],
      ['count=abc', "The value 'abc' is not valid for count."],
      ['skip=1.5', "The value '1.5' is not valid for skip."],
      ['count=99999999999', "The value '99999999999' is not valid for count."],
    ]
    for (const [query, title] of cases) {
      const res = await admin.get(`/api/admin/logs?${query}`)
      expect(res.status, query).toBe(400)
      expect(res.body).toEqual({ title, status: 400 })
    }
  })

  it('answers 401 to anonymous callers and 403 to User, Monitor and banned users', async () => {
    const before = await logCount()
    const anon = await server.client().get('/api/admin/logs')
    expect(anon.status).toBe(401)
    expect(anon.body).toEqual({ title: '请先登录', status: 401 })
    // The role check comes before query validation.
    expect((await server.client().get('/api/admin/logs?count=-1')).status).toBe(401)
    for (const role of ['User', 'Monitor', 'Banned'] as const) {
      const res = await clients[role]!.get('/api/admin/logs?count=-1')
      expect(res.status, role).toBe(403)
      expect(res.body).toEqual({ title: '无权访问', status: 403 })
    }
    expect(await logCount()).toBe(before)
  })

  it('lists the entry of a config change, with its actor, IP and status', async () => {
    await admin.put('/api/admin/config', { globalConfig: { slogan: 'Logged' } })
    const res = await admin.get('/api/admin/logs?count=1')
    const [entry] = LogMessageModel.array().parse(res.body)
    expect(entry).toMatchObject({ name: 'Admin', level: 'Information', msg: '全局设置已更新', status: 'Success' })
    expect(entry.ip).toMatch(/127\.0\.0\.1|::1/)
    expect(entry.time).toMatch(/\+00:00$/)
    expect(Math.abs(Date.parse(entry.time) - Date.now())).toBeLessThan(10_000)
  })
})

describe('AuditLog.write', () => {
  const quietLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() }) as unknown as pino.Logger

  it('never throws into its caller when the database fails, and still pushes', async () => {
    const realtime = new Realtime()
    const publish = vi.spyOn(realtime, 'publish')
    const log = quietLog()
    const brokenOrm = { em: { fork: () => ({ create: () => ({}), flush: () => Promise.reject(new Error('database down')) }) } } as unknown as Orm
    await expect(new AuditLog(brokenOrm, realtime, log).write({ message: 'x', userName: 'Admin', ip: '1.2.3.4', status: 'Success' })).resolves.toBeUndefined()
    expect(log.error).toHaveBeenCalled()
    expect(publish).toHaveBeenCalledWith('admin', 'Admins', 'ReceivedLog', expect.objectContaining({ msg: 'x', status: 'Success' }))
  })

  it('never throws when the push fails', async () => {
    const realtime = new Realtime()
    vi.spyOn(realtime, 'publish').mockImplementation(() => {
      throw new Error('socket layer down')
    })
    const before = await logCount()
    await expect(new AuditLog(server.services.orm, realtime, quietLog()).write({ message: 'still stored' })).resolves.toBeUndefined()
    expect(await logCount()).toBe(before + 1)
  })

  it('stores over-long names and IPs truncated and unknown levels/statuses sanitised instead of losing the entry', async () => {
    await server.services.audit.write({
      message: 'long actor',
      userName: 'n'.repeat(200),
      ip: 'i'.repeat(200),
      level: 'Verbose' as LogLevel,
      status: 'Weird' as TaskStatus,
    })
    const [entry] = (await admin.get('/api/admin/logs?count=1')).body
    expect(entry).toMatchObject({ msg: 'long actor', name: 'n'.repeat(64), ip: 'i'.repeat(64), level: 'Information', status: null })
  })

  it('defaults to the System actor with an empty IP and no status', async () => {
    await server.services.audit.write({ message: 'system line' })
    const [entry] = (await admin.get('/api/admin/logs?count=1')).body
    expect(entry).toMatchObject({ msg: 'system line', name: 'System', ip: '', level: 'Information', status: null })
  })
})
