/**
 * `ReceivedConfigUpdate` on `/hub/user` (docs/realtime.md#user-hub-events): a change of the settings is pushed to
 * every open user-hub socket as the public GlobalConfig, on every node.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { rooms } from '@flagwave/shared/events'
import { GlobalConfig } from '@flagwave/shared/schemas/config'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { closeAllSockets, connect, joined, nextEvent, noEvent } from '../support/sockets.js'
import type { ApiClient } from '../support/client.js'
import { loadConfig } from '../../server/src/config.js'
import { startServer, type RunningServer } from '../../server/src/server.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

async function userSocket(target: Pick<TestServer, 'url' | 'services'>, client?: ApiClient): Promise<Socket> {
  const socket = await connect(target as TestServer, '/hub/user', { client })
  await joined(target as TestServer, '/hub/user', socket, rooms.everyone)
  return socket
}

describe('/hub/user ReceivedConfigUpdate', () => {
  it('reaches anonymous and signed-in sockets after a globalConfig change, equal to GET /api/config', async () => {
    const { client } = await createUser(server)
    const sockets = [await userSocket(server), await userSocket(server, client)]
    const pushes = sockets.map((s) => nextEvent<GlobalConfig>(s, 'ReceivedConfigUpdate'))
    const res = await admin.put('/api/admin/config', { globalConfig: { title: 'Live', slogan: 'Now', footerInfo: 'Foot', beianInfo: 'ICP' } })
    expect(res.status).toBe(200)
    const expected = { title: 'Live', slogan: 'Now', footerInfo: 'Foot', beianInfo: 'ICP', logoHash: null, faviconHash: null }
    for (const push of await Promise.all(pushes)) expect(GlobalConfig.parse(push)).toEqual(expected)
    // GET /api/config is GlobalConfig plus the members newer GZ::CTF clients read (docs/compatibility.md#newer-gzctf-versions); the push is its GlobalConfig part.
    expect(GlobalConfig.parse((await server.client().get('/api/config')).body)).toEqual(expected)
  })

  it('does not push when the PUT is refused', async () => {
    const socket = await userSocket(server)
    const quiet = noEvent(socket, 'ReceivedConfigUpdate', 300)
    expect((await admin.put('/api/admin/config', { globalConfig: { title: 7 } })).status).toBe(400)
    const { client } = await createUser(server)
    expect((await client.put('/api/admin/config', { globalConfig: { title: 'Nope' } })).status).toBe(403)
    await quiet
  })

  describe('with a second node on the same database and Redis', () => {
    const redisUrl = inject('redisUrl')
    let nodeB: RunningServer | null = null
    let dataDir = ''

    beforeAll(async () => {
      if (!redisUrl) return
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-node-b-'))
      nodeB = await startServer(
        loadConfig({
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          PORT: '0',
          DATA_DIR: dataDir,
          DATABASE_URL: server.databaseUrl,
          REDIS_URL: redisUrl,
          REDIS_PREFIX: server.services.config.REDIS_PREFIX,
          ADMIN_PASSWORD,
          LOG_LEVEL: 'silent',
          DISABLE_RATE_LIMIT: 'true',
        }),
        pino({ level: 'silent' }),
      )
    })
    afterAll(async () => {
      closeAllSockets()
      await nodeB?.close()
      if (dataDir) await fs.rm(dataDir, { recursive: true, force: true })
    })

    it.skipIf(!redisUrl)('a socket on node B hears a change made on node A', async () => {
      const socket = await userSocket(nodeB!)
      const push = nextEvent<GlobalConfig>(socket, 'ReceivedConfigUpdate')
      expect((await admin.put('/api/admin/config', { globalConfig: { title: 'Across nodes' } })).status).toBe(200)
      expect(GlobalConfig.parse(await push).title).toBe('Across nodes')
    })
  })
})
