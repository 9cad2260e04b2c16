/**
 * Dead sessions are purged periodically (issue 13; docs/operations.md#purging): expired session
 * rows and rows minted under a security stamp the user no longer has are deleted by the node's
 * purge worker (here every 200 ms), in batches, without waiting for their cookie to come back;
 * live sessions stay and keep working. E-mail tokens are stateless: no rows exist for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { countRows } from '../support/factories/games.js'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ env: { SESSION_PURGE_INTERVAL_MS: '200' } })
})
afterAll(async () => {
  await server?.close()
})

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, 50))
  }
  return true
}

describe('the session purge', () => {
  it('deletes expired sessions and sessions of an old security stamp, and keeps live ones', async () => {
    const conn = server.services.orm.em.fork().getConnection()
    const live = await createUser(server)
    const expired = await createUser(server)
    const stale = await createUser(server)
    // Expired: the row outlived its cookie. Stale: a password change moved the stamp (the row stays).
    await conn.execute(`update sessions set expires_at = now() - interval '1 minute' where user_id = ?`, [expired.user.id])
    await conn.execute(`update users set security_stamp = ? where id = ?`, [randomBytes(16).toString('hex'), stale.user.id])
    // A backlog larger than one batch, as months of sign-ins would leave.
    await conn.execute(
      `insert into sessions (id, user_id, security_stamp, created_at, expires_at)
       select md5(random()::text || g::text) || md5(g::text), ?, 'old', now() - interval '8 days', now() - interval '1 day' from generate_series(1, 2500) g`,
      [live.user.id],
    )

    const dead = () => countRows(server, 'sessions', 'user_id in (?, ?) or security_stamp = ?', [expired.user.id, stale.user.id, 'old'])
    expect(await until(async () => (await dead()) === 0)).toBe(true)
    expect(await countRows(server, 'sessions', 'user_id = ?', [live.user.id])).toBe(1)

    const profile = await live.client.get('/api/account/profile')
    expect(profile.status).toBe(200)
    expect(profile.body).toMatchObject({ userName: live.user.userName })
    for (const gone of [expired, stale]) {
      const res = await gone.client.get('/api/account/profile')
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { title: '请先登录', status: 401 } })
    }
  })
})
