/**
 * The `/hub/admin` push (docs/realtime.md#admin-hub-events): every admin socket receives `ReceivedLog` within
 * 100 ms of the action, with the server's local offset and a TaskStatus name; sockets of
 * lower roles are disconnected.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { rooms } from '@flagwave/shared/events'
import { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { WIRE_DATE_PATTERN } from '@flagwave/shared/format'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { closeAllSockets, connect, disconnected, joined, noEvent } from '../support/sockets.js'
import type { ApiClient } from '../support/client.js'

let server: TestServer
let admin: ApiClient
const originalTz = process.env.TZ

beforeAll(async () => {
  // The server runs in this process: give it a local zone that is not UTC (no DST in Shanghai).
  process.env.TZ = 'Asia/Shanghai'
  server = await startTestServer()
  admin = await server.admin()
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
  if (originalTz === undefined) delete process.env.TZ
  else process.env.TZ = originalTz
})

async function adminSocket(): Promise<Socket> {
  const socket = await connect(server, '/hub/admin', { client: admin })
  await joined(server, '/hub/admin', socket, rooms.admins)
  return socket
}

/** The first ReceivedLog whose msg is `msg`, with the time it arrived. */
function logArrival(socket: Socket, msg: string, timeoutMs = 3000): Promise<{ payload: LogMessageModel; at: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('ReceivedLog', handler)
      reject(new Error(`no ReceivedLog "${msg}" within ${timeoutMs} ms`))
    }, timeoutMs)
    const handler = (payload: LogMessageModel) => {
      if (payload.msg !== msg) return
      clearTimeout(timer)
      socket.off('ReceivedLog', handler)
      resolve({ payload, at: Date.now() })
    }
    socket.on('ReceivedLog', handler)
  })
}

describe('/hub/admin ReceivedLog', () => {
  it('reaches every admin socket within 100 ms of a config PUT, local offset on the hub, UTC over REST', async () => {
    const first = await adminSocket()
    const second = await adminSocket()
    const arrivals = [logArrival(first, '全局设置已更新'), logArrival(second, '全局设置已更新')]
    const res = await admin.put('/api/admin/config', { globalConfig: { title: 'Pushed' } })
    const responded = Date.now()
    expect(res.status).toBe(200)
    for (const arrival of await Promise.all(arrivals)) {
      expect(arrival.at - responded).toBeLessThanOrEqual(100)
      const payload = LogMessageModel.parse(arrival.payload)
      expect(payload).toMatchObject({ name: 'Admin', level: 'Information', msg: '全局设置已更新', status: 'Success' })
      expect(typeof payload.ip).toBe('string')
      expect(payload.time).toMatch(WIRE_DATE_PATTERN)
      expect(payload.time).toMatch(/\+08:00$/)
    }
    const pushed = (await arrivals[0]).payload

    // The same entry over REST: the same instant, written with +00:00.
    const [stored] = LogMessageModel.array().parse((await admin.get('/api/admin/logs?count=1')).body)
    expect(stored.msg).toBe('全局设置已更新')
    expect(stored.time).toMatch(/\+00:00$/)
    expect(Date.parse(stored.time)).toBe(Date.parse(pushed.time))
    expect(pushed.time.slice(11, 13)).toBe(String((new Date(Date.parse(stored.time)).getUTCHours() + 8) % 24).padStart(2, '0'))
    expect({ ...pushed, time: stored.time }).toEqual(stored)
  })

  it('pushes a TaskStatus name even for entries stored without a status', async () => {
    const socket = await adminSocket()
    const arrival = logArrival(socket, 'no status here')
    await server.services.audit.write({ message: 'no status here' })
    const { payload } = await arrival
    expect(payload).toMatchObject({ name: 'System', ip: '', level: 'Information', status: 'Success' })
    const [stored] = (await admin.get('/api/admin/logs?count=1')).body
    expect(stored).toMatchObject({ msg: 'no status here', status: null })
  })

  it('pushes other statuses and levels as given', async () => {
    const socket = await adminSocket()
    const arrival = logArrival(socket, 'login failed somewhere')
    await server.services.audit.write({ message: 'login failed somewhere', level: 'Warning', status: 'Failed', userName: 'Anonymous', ip: '10.1.2.3' })
    expect((await arrival).payload).toMatchObject({ name: 'Anonymous', level: 'Warning', status: 'Failed', ip: '10.1.2.3' })
  })

  it('disconnects Monitor, User, banned and anonymous sockets, which receive nothing', async () => {
    const monitor = await createUser(server, { role: 'Monitor' })
    const user = await createUser(server, { role: 'User' })
    const banned = await createUser(server, { role: 'Banned' })
    for (const [label, cookie] of [
      ['Monitor', monitor.client.cookieHeader],
      ['User', user.client.cookieHeader],
      ['Banned', banned.client.cookieHeader],
      ['anonymous', ''],
    ] as const) {
      const socket = await connect(server, '/hub/admin', { cookie })
      const quiet = noEvent(socket, 'ReceivedLog', 300).catch((err: Error) => err)
      expect(await disconnected(socket), label).toBe('io server disconnect')
      await server.services.audit.write({ message: `after ${label}` })
      expect(await quiet, label).toBeUndefined()
    }
  })
})
