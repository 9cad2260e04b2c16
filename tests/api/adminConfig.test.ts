/**
 * Runtime settings (docs/compatibility.md#group-admin, #group-info, #configuration-shapes): GET/PUT /api/admin/config, the
 * "null keeps" rule, type validation, the effect on the next request (also on another node),
 * concurrency and malformed stored values.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest'
import { ConfigEditModel, GlobalConfig } from '@flagwave/shared/schemas/config'
import { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { ApiClient } from '../support/client.js'
import { loadConfig } from '../../server/src/config.js'
import { startServer, type RunningServer } from '../../server/src/server.js'
import { DEFAULT_SETTINGS, SettingsStore, settingsFromRows } from '../../server/src/domain/config/settings.js'

let server: TestServer
let admin: ApiClient

/** GZ::CTF 1.x's members of the admin global config, with their neutral values (docs/compatibility.md#newer-gzctf-versions). */
const NEWER_GLOBAL = { description: null, customTheme: null, logoHash: null, faviconHash: null, apiEncryption: false }
/** GZ::CTF 0.18's `containerPolicy` beside `gamePolicy`: the same switch and Flagwave's fixed container times. */
const containerPolicy = (autoDestroyOnLimitReached: boolean) => ({
  autoDestroyOnLimitReached,
  maxExerciseContainerCountPerUser: 1,
  defaultLifetime: 120,
  extensionDuration: 120,
  renewalWindow: 10,
})
/** The newer members of GET /api/config. */
const NEWER_CLIENT_CONFIG = { defaultLifetime: 120, extensionDuration: 120, renewalWindow: 10, customTheme: null, logoUrl: null, portMapping: 'Default', apiPublicKey: null }

const DEFAULTS = {
  accountPolicy: { allowRegister: true, activeOnRegister: true, useCaptcha: false, emailConfirmationRequired: false, emailDomainList: '', twoFactorPolicy: 'Off' },
  globalConfig: { title: 'Flagwave', slogan: '实时推送的 CTF 竞赛平台', footerInfo: null, beianInfo: null, ...NEWER_GLOBAL },
  gamePolicy: { autoDestroyOnLimitReached: false },
  containerPolicy: containerPolicy(false),
}

type Row = { key: string; value: string | null }

async function configRows(): Promise<Row[]> {
  return server.services.orm.em.fork().getConnection().execute<Row[]>('select key, value from configs order by key')
}

async function resetConfig(): Promise<void> {
  await server.services.orm.em.fork().getConnection().execute('delete from configs')
  server.services.settings.invalidate()
}

beforeAll(async () => {
  // Until services.ts hands the settings store its logger, the store's own fallback logger reads LOG_LEVEL.
  process.env.LOG_LEVEL ??= process.env.TEST_LOG_LEVEL ?? 'silent'
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})
beforeEach(async () => {
  await resetConfig()
})

describe('GET /api/admin/config', () => {
  it('answers every section, with the defaults when nothing is stored', async () => {
    const res = await admin.get('/api/admin/config')
    expect(res.status).toBe(200)
    const body = ConfigEditModel.parse(res.body)
    expect(body.accountPolicy).not.toBeNull()
    expect(body.globalConfig).not.toBeNull()
    expect(body.gamePolicy).not.toBeNull()
    expect(res.body).toEqual(DEFAULTS)
  })

  it('reads the database, not a stale cache (configuration is reloaded before reading)', async () => {
    await admin.get('/api/config') // fill the cache
    await server.services.orm.em.fork().getConnection().execute("insert into configs (key, value) values ('globalConfig.slogan', 'Written behind our back')")
    const res = await admin.get('/api/admin/config')
    expect(res.body.globalConfig.slogan).toBe('Written behind our back')
  })

  it('answers 401 to anonymous callers and 403 to User, Monitor and banned users', async () => {
    const anon = await server.client().get('/api/admin/config')
    expect(anon.status).toBe(401)
    expect(anon.body).toEqual({ title: '请先登录', status: 401 })
    for (const role of ['User', 'Monitor', 'Banned'] as const) {
      const { client } = await createUser(server, { role })
      const res = await client.get('/api/admin/config')
      expect(res.status, role).toBe(403)
      expect(res.body).toEqual({ title: '无权访问', status: 403 })
    }
  })
})

describe('PUT /api/admin/config', () => {
  it('stores every non-null leaf and answers 200 with an empty body', async () => {
    const res = await admin.put('/api/admin/config', {
      accountPolicy: { allowRegister: false, activeOnRegister: false, useCaptcha: true, emailConfirmationRequired: true, emailDomainList: 'example.com,example.org' },
      globalConfig: { title: 'Wave', slogan: 'Catch the flag', footerInfo: 'Footer text', beianInfo: '京ICP备00000000号', logoHash: null, faviconHash: null },
      gamePolicy: { autoDestroyOnLimitReached: true },
    })
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    const expected = {
      accountPolicy: { allowRegister: false, activeOnRegister: false, useCaptcha: true, emailConfirmationRequired: true, emailDomainList: 'example.com,example.org', twoFactorPolicy: 'Off' },
      globalConfig: { title: 'Wave', slogan: 'Catch the flag', footerInfo: 'Footer text', beianInfo: '京ICP备00000000号', ...NEWER_GLOBAL },
      gamePolicy: { autoDestroyOnLimitReached: true },
      containerPolicy: containerPolicy(true),
    }
    const got = await admin.get('/api/admin/config')
    expect(ConfigEditModel.parse(got.body)).toEqual(expected)
    // Stored in the database as text under dotted keys.
    expect(await configRows()).toEqual([
      { key: 'accountPolicy.activeOnRegister', value: 'false' },
      { key: 'accountPolicy.allowRegister', value: 'false' },
      { key: 'accountPolicy.emailConfirmationRequired', value: 'true' },
      { key: 'accountPolicy.emailDomainList', value: 'example.com,example.org' },
      { key: 'accountPolicy.useCaptcha', value: 'true' },
      { key: 'gamePolicy.autoDestroyOnLimitReached', value: 'true' },
      { key: 'globalConfig.beianInfo', value: '京ICP备00000000号' },
      { key: 'globalConfig.footerInfo', value: 'Footer text' },
      { key: 'globalConfig.slogan', value: 'Catch the flag' },
      { key: 'globalConfig.title', value: 'Wave' },
    ])
  })

  it('keeps a null or missing section and a null or missing leaf; "" clears the footer', async () => {
    await admin.put('/api/admin/config', { globalConfig: { title: 'First', slogan: 'S', footerInfo: 'Foot', beianInfo: 'Beian' } })
    let res = await admin.put('/api/admin/config', { accountPolicy: null, globalConfig: { title: 'Second', slogan: null, footerInfo: null }, gamePolicy: null })
    expect(res.status).toBe(200)
    let body = (await admin.get('/api/admin/config')).body
    expect(body.globalConfig).toEqual({ title: 'Second', slogan: 'S', footerInfo: 'Foot', beianInfo: 'Beian', ...NEWER_GLOBAL })
    expect(body.accountPolicy).toEqual(DEFAULTS.accountPolicy)
    expect(body.gamePolicy).toEqual(DEFAULTS.gamePolicy)

    res = await admin.put('/api/admin/config', { globalConfig: { footerInfo: '' } })
    expect(res.status).toBe(200)
    body = (await admin.get('/api/admin/config')).body
    expect(body.globalConfig).toEqual({ title: 'Second', slogan: 'S', footerInfo: '', beianInfo: 'Beian', ...NEWER_GLOBAL })

    res = await admin.put('/api/admin/config', {})
    expect(res.status).toBe(200)
    expect((await admin.get('/api/admin/config')).body.globalConfig.title).toBe('Second')
  })

  it('takes GZ::CTF 0.18\'s containerPolicy for gamePolicy (it wins) and the neutral newer members; refuses values of features Flagwave lacks', async () => {
    // A newer client sends back what it read.
    const read = (await admin.get('/api/admin/config')).body
    expect((await admin.put('/api/admin/config', { ...read, containerPolicy: containerPolicy(true) })).status).toBe(200)
    let body = (await admin.get('/api/admin/config')).body
    expect(body).toMatchObject({ gamePolicy: { autoDestroyOnLimitReached: true }, containerPolicy: containerPolicy(true), globalConfig: NEWER_GLOBAL })
    expect((await admin.put('/api/admin/config', { gamePolicy: { autoDestroyOnLimitReached: true }, containerPolicy: { autoDestroyOnLimitReached: false } })).status).toBe(200)
    body = (await admin.get('/api/admin/config')).body
    expect(body).toMatchObject({ gamePolicy: { autoDestroyOnLimitReached: false }, containerPolicy: { autoDestroyOnLimitReached: false } })
    // containerPolicy is stored as gamePolicy's switch; nothing under its own name.
    expect((await configRows()).filter((r) => !/^(accountPolicy|globalConfig)\./.test(r.key))).toEqual([{ key: 'gamePolicy.autoDestroyOnLimitReached', value: 'false' }])

    const before = await configRows()
    const cases: [unknown, string][] = [
      [{ containerPolicy: { defaultLifetime: 60 } }, '容器时长不可修改'],
      [{ containerPolicy: { renewalWindow: 5 } }, '容器时长不可修改'],
      [{ containerPolicy: { maxExerciseContainerCountPerUser: 3 } }, '不支持练习容器'],
      [{ containerPolicy: { autoDestroyOnLimitReached: 'yes' } }, 'The JSON value could not be converted to System.Boolean.'],
      [{ globalConfig: { title: 'Half', customTheme: '{"primary":"red"}' } }, '不支持自定义主题'],
      [{ globalConfig: { description: 'About us' } }, '不支持平台描述'],
      [{ globalConfig: { apiEncryption: true } }, '不支持载荷加密'],
    ]
    for (const [json, title] of cases) {
      const res = await admin.put('/api/admin/config', json)
      expect({ json, status: res.status, body: res.body }).toEqual({ json, status: 400, body: { title, status: 400 } })
    }
    expect(await configRows()).toEqual(before)
    // logoHash/faviconHash belong to the logo routes: sent back by a newer client, they are accepted and change nothing.
    expect((await admin.put('/api/admin/config', { globalConfig: { logoHash: 'a'.repeat(64), faviconHash: 'b'.repeat(64) } })).status).toBe(200)
    expect((await admin.get('/api/admin/config')).body.globalConfig).toMatchObject({ logoHash: null, faviconHash: null })
    expect(await configRows()).toEqual(before)
  })

  it('matches member names case-insensitively and ignores unknown members', async () => {
    const res = await admin.put('/api/admin/config', { GlobalConfig: { Title: 'Cased', unknownLeaf: 1 }, somethingElse: true })
    expect(res.status).toBe(200)
    expect((await admin.get('/api/config')).body.title).toBe('Cased')
    expect((await configRows()).map((r) => r.key)).toEqual(['globalConfig.title'])
  })

  it('answers 400 for values of the wrong JSON type and changes nothing', async () => {
    await admin.put('/api/admin/config', { globalConfig: { title: 'Before' } })
    const before = await configRows()
    const cases: [unknown, string][] = [
      [{ accountPolicy: { allowRegister: 'false' } }, 'The JSON value could not be converted to System.Boolean.'],
      [{ accountPolicy: { allowRegister: 0 } }, 'The JSON value could not be converted to System.Boolean.'],
      [{ gamePolicy: { autoDestroyOnLimitReached: 'yes' } }, 'The JSON value could not be converted to System.Boolean.'],
      [{ globalConfig: { title: 42 } }, 'The JSON value could not be converted to System.String.'],
      [{ globalConfig: { title: 'Valid', footerInfo: ['x'] } }, 'The JSON value could not be converted to System.String.'],
      // A valid leaf next to an invalid one is not stored either.
      [{ globalConfig: { title: 'Half' }, accountPolicy: { useCaptcha: 'true' } }, 'The JSON value could not be converted to System.Boolean.'],
    ]
    for (const [json, title] of cases) {
      const res = await admin.put('/api/admin/config', json)
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect(res.body).toEqual({ title, status: 400 })
    }
    // A section that is not an object, an empty body, a malformed body.
    for (const json of [{ globalConfig: 'Wave' }, { accountPolicy: [true] }, [1, 2]]) {
      const res = await admin.put('/api/admin/config', json)
      expect(res.status, JSON.stringify(json)).toBe(400)
      expect(res.body).toMatchObject({ status: 400 })
      expect(typeof res.body.title).toBe('string')
    }
    const empty = await admin.request('PUT', '/api/admin/config', { body: '', headers: { 'content-type': 'application/json' } })
    expect(empty.status).toBe(400)
    expect(empty.body).toEqual({ title: 'A non-empty request body is required.', status: 400 })
    const broken = await admin.request('PUT', '/api/admin/config', { body: '{"globalConfig": {', headers: { 'content-type': 'application/json' } })
    expect(broken.status).toBe(400)
    const text = await admin.request('PUT', '/api/admin/config', { body: 'title=x', headers: { 'content-type': 'text/plain' } })
    expect(text.status).toBe(415)

    expect(await configRows()).toEqual(before)
    expect((await admin.get('/api/config')).body.title).toBe('Before')
  })

  it('answers 401 to anonymous callers and 403 to User, Monitor and banned users, changing nothing', async () => {
    const before = await configRows()
    const json = { globalConfig: { title: 'Hijacked' }, accountPolicy: { allowRegister: false } }
    const anon = await server.client().put('/api/admin/config', json)
    expect(anon.status).toBe(401)
    expect(anon.body).toEqual({ title: '请先登录', status: 401 })
    // 401 wins over a bad body (docs/compatibility.md#sessions-and-roles).
    expect((await server.client().put('/api/admin/config', { accountPolicy: { allowRegister: 'x' } })).status).toBe(401)
    for (const role of ['User', 'Monitor', 'Banned'] as const) {
      const { client } = await createUser(server, { role })
      const res = await client.put('/api/admin/config', json)
      expect(res.status, role).toBe(403)
      expect(res.body).toEqual({ title: '无权访问', status: 403 })
    }
    expect(await configRows()).toEqual(before)
    expect((await server.client().get('/api/config')).body.title).toBe('Flagwave')
  })

  it('records the change in the audit log', async () => {
    const res = await admin.put('/api/admin/config', { gamePolicy: { autoDestroyOnLimitReached: true } })
    expect(res.status).toBe(200)
    const logs = await admin.get('/api/admin/logs?count=5')
    const entries = LogMessageModel.array().parse(logs.body)
    expect(entries[0]).toMatchObject({ name: 'Admin', level: 'Information', msg: '全局设置已更新', status: 'Success' })
  })
})

describe('applied without a restart', () => {
  it('allowRegister=false makes the next registration answer 注册功能已禁用, true re-enables it', async () => {
    const register = (n: string) => server.client().post('/api/account/register', { userName: `reg${n}`, password: 'Passw0rd!', email: `reg${n}@example.com` })
    await server.client().get('/api/config') // fill the cache
    expect((await admin.put('/api/admin/config', { accountPolicy: { allowRegister: false } })).status).toBe(200)
    const refused = await register('a')
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ title: '注册功能已禁用', status: 400 })

    expect((await admin.put('/api/admin/config', { accountPolicy: { allowRegister: true } })).status).toBe(200)
    const accepted = await register('b')
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({ status: 200, data: 'LoggedIn' })
  })

  it('a title change is visible on the next GET /api/config', async () => {
    const anon = server.client()
    expect((await anon.get('/api/config')).body.title).toBe('Flagwave')
    await admin.put('/api/admin/config', { globalConfig: { title: 'Renamed', beianInfo: 'ICP 1' } })
    const res = await anon.get('/api/config')
    expect(res.status).toBe(200)
    expect(GlobalConfig.parse(res.body)).toEqual({ title: 'Renamed', slogan: '实时推送的 CTF 竞赛平台', footerInfo: null, beianInfo: 'ICP 1', logoHash: null, faviconHash: null })
  })
})

describe('robustness of the settings store', () => {
  it('concurrent updates all land, and the cache ends equal to the database', async () => {
    await admin.get('/api/config')
    const puts = [
      admin.put('/api/admin/config', { globalConfig: { title: 'T' } }),
      admin.put('/api/admin/config', { globalConfig: { slogan: 'S' } }),
      admin.put('/api/admin/config', { globalConfig: { footerInfo: 'F' } }),
      admin.put('/api/admin/config', { globalConfig: { beianInfo: 'B' } }),
      admin.put('/api/admin/config', { accountPolicy: { useCaptcha: true } }),
      admin.put('/api/admin/config', { gamePolicy: { autoDestroyOnLimitReached: true } }),
    ]
    // Interleave reads that fill the cache while the writes run.
    const reads = Array.from({ length: 10 }, () => server.client().get('/api/config'))
    for (const res of await Promise.all(puts)) expect(res.status).toBe(200)
    await Promise.all(reads)
    const fromDb = settingsFromRows(await configRows())
    expect(fromDb.globalConfig).toEqual({ title: 'T', slogan: 'S', footerInfo: 'F', beianInfo: 'B', logoHash: '', faviconHash: '' })
    expect(fromDb.accountPolicy.useCaptcha).toBe(true)
    expect(fromDb.gamePolicy.autoDestroyOnLimitReached).toBe(true)
    // '' in the store is null on the wire (no logo).
    expect((await server.client().get('/api/config')).body).toEqual({ ...fromDb.globalConfig, logoHash: null, faviconHash: null, ...NEWER_CLIENT_CONFIG })
  })

  it('many concurrent writers of the same leaf: the cache holds the committed winner', async () => {
    const titles = Array.from({ length: 15 }, (_, i) => `Title ${i}`)
    const results = await Promise.all(titles.map((title) => admin.put('/api/admin/config', { globalConfig: { title } })))
    for (const res of results) expect(res.status).toBe(200)
    const stored = (await configRows()).find((r) => r.key === 'globalConfig.title')?.value
    expect(titles).toContain(stored)
    expect((await server.client().get('/api/config')).body.title).toBe(stored)
  })

  it('a malformed stored value falls back to its default instead of failing the read', async () => {
    await server.services.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into configs (key, value) values
           ('accountPolicy.allowRegister', 'maybe'), ('accountPolicy.useCaptcha', 'True'),
           ('globalConfig.title', null), ('globalConfig.slogan', 'Still fine'), ('gamePolicy.autoDestroyOnLimitReached', ''),
           ('globalConfig.unknownLeaf', 'ignored'), ('SomethingElse', 'x')`,
      )
    server.services.settings.invalidate()
    const pub = await server.client().get('/api/config')
    expect(pub.status).toBe(200)
    expect(pub.body).toEqual({ title: 'Flagwave', slogan: 'Still fine', footerInfo: null, beianInfo: null, logoHash: null, faviconHash: null, ...NEWER_CLIENT_CONFIG })
    const res = await admin.get('/api/admin/config')
    expect(res.status).toBe(200)
    expect(res.body.accountPolicy).toEqual({ ...DEFAULTS.accountPolicy, useCaptcha: true })
    expect(res.body.gamePolicy).toEqual(DEFAULTS.gamePolicy)
    // The next write repairs a leaf.
    await admin.put('/api/admin/config', { accountPolicy: { allowRegister: false } })
    expect((await admin.get('/api/admin/config')).body.accountPolicy.allowRegister).toBe(false)
  })

  it('logs a warning naming the malformed key', async () => {
    await server.services.orm.em.fork().getConnection().execute("insert into configs (key, value) values ('accountPolicy.allowRegister', 'maybe')")
    const warn = vi.fn()
    const log = { warn, error: vi.fn(), info: vi.fn() } as unknown as pino.Logger
    const store = new SettingsStore(() => {}, { log })
    const settings = await store.get(server.services.orm.em.fork())
    expect(settings.accountPolicy.allowRegister).toBe(DEFAULT_SETTINGS.accountPolicy.allowRegister)
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ key: 'accountPolicy.allowRegister', value: 'maybe' }), expect.stringContaining('malformed'))
  })

  it('returns frozen settings that callers cannot corrupt', async () => {
    const settings = await server.services.settings.get(server.services.orm.em.fork())
    expect(Object.isFrozen(settings.globalConfig)).toBe(true)
    expect(() => {
      ;(settings.globalConfig as { title: string }).title = 'mutated'
    }).toThrow()
  })
})

describe('two nodes on the same database and Redis', () => {
  const redisUrl = inject('redisUrl')
  let nodeB: RunningServer | null = null
  let dataDir = ''

  beforeAll(async () => {
    if (!redisUrl) return
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-node-b-'))
    const config = loadConfig({
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
    })
    nodeB = await startServer(config, pino({ level: 'silent' }))
  })
  afterAll(async () => {
    await nodeB?.close()
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true })
  })

  it.skipIf(!redisUrl)('a PUT on node A is visible on the next GET /api/config of node B, and back', async () => {
    const onB = new ApiClient(nodeB!.url)
    const adminB = new ApiClient(nodeB!.url)
    await adminB.login('Admin', ADMIN_PASSWORD)
    for (let i = 0; i < 5; i++) {
      // Both caches are warm before each change.
      await onB.get('/api/config')
      await server.client().get('/api/config')
      expect((await admin.put('/api/admin/config', { globalConfig: { title: `From A ${i}` } })).status).toBe(200)
      expect((await onB.get('/api/config')).body.title).toBe(`From A ${i}`)
      expect((await adminB.put('/api/admin/config', { globalConfig: { slogan: `From B ${i}` } })).status).toBe(200)
      const onA = (await server.client().get('/api/config')).body
      expect(onA).toMatchObject({ title: `From A ${i}`, slogan: `From B ${i}` })
    }
    // And the account policy too: registration on node B is refused after A disabled it.
    await onB.get('/api/config')
    await admin.put('/api/admin/config', { accountPolicy: { allowRegister: false } })
    const refused = await onB.post('/api/account/register', { userName: 'nodeb', password: 'Passw0rd!', email: 'nodeb@example.com' })
    expect(refused.body).toEqual({ title: '注册功能已禁用', status: 400 })
  })
})
