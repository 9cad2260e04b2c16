/**
 * Two nodes for a test file (docs/architecture.md#read-cache: what one node writes, the other must
 * not serve stale): the test server and a second node on its database and Redis prefix, started
 * before the file's tests and closed after them, both handed to `take` once they run.
 */
import { afterAll, beforeAll } from 'vitest'
import type { RunningServer } from '../../server/src/server.js'
import type { ApiClient } from './client.js'
import { startSecondNode } from './factories/play.js'
import { startTestServer, type TestServer } from './server.js'

export interface TwoNodes {
  server: TestServer
  other: RunningServer
  /** The test server's admin. */
  admin: ApiClient
}

export function withTwoNodes(take: (nodes: TwoNodes) => void): void {
  let server: TestServer | undefined
  let other: RunningServer | undefined
  beforeAll(async () => {
    server = await startTestServer()
    other = await startSecondNode(server)
    take({ server, other, admin: await server.admin() })
  })
  afterAll(async () => {
    await other?.close()
    await server?.close()
  })
}
