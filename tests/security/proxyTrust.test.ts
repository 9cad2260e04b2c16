/**
 * Identity never comes from request headers (issue 13): behind TRUST_PROXY, X-Forwarded-For is
 * believed only from TRUSTED_PROXIES (loopback by default) and only up to the right-most hop that
 * is not a trusted proxy; whatever is taken must be a valid IP (≤ 45 characters); and a header
 * never earns the global rate limit's loopback exemption, which belongs to callers whose socket
 * is on this machine and whose request was not forwarded.
 *
 * Each attack is sent over HTTP to the real server and looks at what the server recorded: the
 * session's and the user's address, the audit entry, and whether the global limiter answered 429.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { Session } from '../../server/src/entities/Session.js'
import { User } from '../../server/src/entities/User.js'
import { LogEntry } from '../../server/src/entities/LogEntry.js'
import { externalIpv4, rawRequest, type RawResponse } from './support/rawHttp.js'

/** Sign a new user in over raw HTTP with extra headers; the recorded addresses of that sign-in. */
async function signInRecording(server: TestServer, headers: Record<string, string | string[]>, from?: { host: string; localAddress: string }) {
  const { user, password } = await createUser(server)
  const res = await rawRequest({
    method: 'POST',
    host: from?.host ?? '127.0.0.1',
    port: server.port,
    path: '/api/account/login',
    json: { userName: user.userName, password },
    headers,
    localAddress: from?.localAddress,
  })
  const em = server.services.orm.em.fork()
  const session = await em.findOne(Session, { user: user.id }, { orderBy: { expiresAt: 'desc' } })
  const stored = await em.findOneOrFail(User, user.id)
  const audit = await em.find(LogEntry, { userName: user.userName }, { orderBy: { id: 'desc' } })
  return { status: res.status, sessionIp: session?.ip, userIp: stored.ip, auditIps: audit.map((a) => a.ip) }
}

describe('X-Forwarded-For from a peer that is not a trusted proxy', () => {
  let server: TestServer
  beforeAll(async () => {
    // The proxy is elsewhere: this test's loopback connections are strangers.
    server = await startTestServer({ env: { TRUST_PROXY: 'true', TRUSTED_PROXIES: '192.0.2.254' } })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('is ignored: the session, the user and the audit log record the real peer', async () => {
    const recorded = await signInRecording(server, { 'x-forwarded-for': '203.0.113.66' })
    expect(recorded.status).toBe(200)
    expect(recorded.sessionIp).toBe('127.0.0.1')
    expect(recorded.userIp).toBe('127.0.0.1')
    expect(recorded.auditIps.length).toBeGreaterThan(0)
    expect(recorded.auditIps.every((ip) => ip === '127.0.0.1')).toBe(true)
  })

  /** Ask for a reset mail with `headers` and return its text (mail confirmation on). */
  async function resetMailWith(headers: Record<string, string>): Promise<string> {
    await server.services.settings.update(server.services.orm.em.fork(), { accountPolicy: { ...(await accountPolicy(server)), emailConfirmationRequired: true } })
    const { user } = await createUser(server)
    const res = await rawRequest({ method: 'POST', host: '127.0.0.1', port: server.port, path: '/api/account/recovery', json: { email: user.email }, headers })
    expect(res.status).toBe(200)
    const mail = [...server.services.mailer.recent].reverse().find((m) => m.to === user.email)
    expect(mail?.text).toContain('/account/reset?token=')
    return mail!.text
  }

  it('cannot poison the host of links in mails with X-Forwarded-Host', async () => {
    expect(await resetMailWith({ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })).not.toContain('evil.example')
  })

  it('builds links in mails from the public origin, not from a Host header the caller chose', async () => {
    const text = await resetMailWith({ host: 'evil.example' })
    expect(text).not.toContain('evil.example')
    // PUBLIC_URL is unset here: the default public origin is localhost on the listening port.
    expect(text).toContain(`http://localhost:${server.port}/account/reset?token=`)
  })
})

async function accountPolicy(server: TestServer) {
  return (await server.services.settings.get(server.services.orm.em.fork())).accountPolicy
}

describe('X-Forwarded-For from a trusted proxy (loopback, the default)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('takes the right-most hop that is not a trusted proxy, not the left-most one the client wrote', async () => {
    // The client sent "X-Forwarded-For: 198.51.100.7"; the proxy appended the address it saw.
    const appended = await signInRecording(server, { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' })
    expect(appended.sessionIp).toBe('203.0.113.9')
    expect(appended.userIp).toBe('203.0.113.9')
    // Hops that are trusted proxies themselves are skipped.
    const chained = await signInRecording(server, { 'x-forwarded-for': '203.0.113.10, 127.0.0.1' })
    expect(chained.sessionIp).toBe('203.0.113.10')
    // Several header lines count as one list.
    const lines = await signInRecording(server, { 'x-forwarded-for': ['198.51.100.7', '203.0.113.11'] })
    expect(lines.userIp).toBe('203.0.113.11')
  })

  it.each([
    ['a 100-character value', 'a'.repeat(100)],
    ['a 60-character IPv6-looking value', `${'1:'.repeat(29)}1`],
    ['not an address', 'not-an-ip'],
    ['five octets', '1.2.3.4.5'],
    ['markup', '<script>alert(1)</script>'],
  ])('validates the forwarded address: %s falls back to the peer', async (_label, value) => {
    const recorded = await signInRecording(server, { 'x-forwarded-for': value })
    expect(recorded.status).toBe(200)
    expect(recorded.sessionIp).toBe('127.0.0.1')
    expect(recorded.userIp).toBe('127.0.0.1')
    expect(recorded.auditIps.every((ip) => ip === '127.0.0.1')).toBe(true)
  })

  it('accepts a valid forwarded IPv6 address and an IPv4 address with a port', async () => {
    expect((await signInRecording(server, { 'x-forwarded-for': '2001:db8::42' })).sessionIp).toBe('2001:db8::42')
    expect((await signInRecording(server, { 'x-forwarded-for': '203.0.113.12:51234' })).sessionIp).toBe('203.0.113.12')
  })
})

/**
 * The loopback exemption needs a connection whose peer is not loopback: the server listens on
 * every interface and the test connects to (and from) this machine's external address.
 */
const external = externalIpv4()
// Only a machine with no address besides loopback skips these; CI machines have one and must run them.
if (!external && process.env.CI) throw new Error('no non-loopback IPv4 address: the loopback-exemption tests cannot run')

describe.skipIf(!external)('the global rate limit’s loopback exemption', () => {
  const GLOBAL_LIMIT = 150
  const burst = async (server: TestServer, headers: Record<string, string>, from: string): Promise<RawResponse[]> => {
    const responses: RawResponse[] = []
    // Sequential batches: the counters are what is tested, not the server's concurrency.
    for (let i = 0; i < GLOBAL_LIMIT + 10; i += 20) {
      responses.push(...(await Promise.all(Array.from({ length: 20 }, () => rawRequest({ host: from, port: server.port, path: '/api/config', headers, localAddress: from })))))
    }
    return responses
  }
  const limited = (responses: RawResponse[]) => responses.filter((r) => r.status === 429).length

  it('is not granted by X-Forwarded-For: 127.0.0.1 from a stranger', async () => {
    // In-memory limiter (no Redis): the counters belong to this server alone.
    const server = await startTestServer({ rateLimit: true, redis: false, env: { HOST: '0.0.0.0', TRUST_PROXY: 'true' } })
    try {
      const responses = await burst(server, { 'x-forwarded-for': '127.0.0.1' }, external!)
      expect(limited(responses)).toBeGreaterThanOrEqual(10)
    } finally {
      await server.close()
    }
  })

  it('is not granted when a trusted proxy forwards a request that claims 127.0.0.1', async () => {
    const server = await startTestServer({ rateLimit: true, redis: false, env: { HOST: '0.0.0.0', TRUST_PROXY: 'true', TRUSTED_PROXIES: external! } })
    try {
      const responses = await burst(server, { 'x-forwarded-for': '127.0.0.1' }, external!)
      expect(limited(responses)).toBeGreaterThanOrEqual(10)
    } finally {
      await server.close()
    }
  })

  it('still holds for a caller on this machine that was not forwarded', async () => {
    const server = await startTestServer({ rateLimit: true, redis: false, env: { TRUST_PROXY: 'true' } })
    try {
      const responses = await burst(server, {}, '127.0.0.1')
      expect(limited(responses)).toBe(0)
      expect(responses.every((r) => r.status === 200)).toBe(true)
    } finally {
      await server.close()
    }
  })
})
