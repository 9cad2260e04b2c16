/**
 * Error titles follow Accept-Language like newer GZ::CTF (docs/compatibility.md#error-title-language):
 * Chinese, `*`, an absent header or only unsupported languages → the contract's titles exactly;
 * English preferred → our English titles — for domain errors, validation messages, titles with
 * values in them and the session guard, and never a different status or shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { titleLanguage } from '../../server/src/lib/errorTitles.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, DEFAULT_PASSWORD } from '../support/factories/users.js'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const login = (acceptLanguage: string | undefined, json: unknown) =>
  server.client().post('/api/account/login', json, acceptLanguage === undefined ? {} : { 'Accept-Language': acceptLanguage })

describe('Accept-Language of error titles', () => {
  const profile = (acceptLanguage: string | undefined) => server.client().get('/api/account/profile', acceptLanguage === undefined ? {} : { 'Accept-Language': acceptLanguage })

  it('keeps the contract titles for Chinese, *, no header and unsupported languages', async () => {
    for (const header of [undefined, '', 'zh-CN', 'zh-CN,zh;q=0.9,en;q=0.8', '*', 'fr-FR', 'en;q=0.5, zh;q=0.8', 'zh-Hant-TW']) {
      const res = await profile(header)
      expect({ header, status: res.status, body: res.body }).toEqual({ header, status: 401, body: { title: '请先登录', status: 401 } })
    }
  })

  it('answers English titles when English comes first among the supported languages', async () => {
    for (const header of ['en', 'en-US,en;q=0.9,zh-CN;q=0.8', 'fr-FR, en;q=0.5', 'zh;q=0.3, en-GB;q=0.7']) {
      const res = await profile(header)
      expect({ header, status: res.status, body: res.body }).toEqual({ header, status: 401, body: { title: 'Please sign in first', status: 401 } })
    }
  })

  it('translates domain errors and leaves successes alone', async () => {
    const { user } = await createUser(server)
    expect((await login('zh-CN', { userName: user.userName, password: 'Wrong0ne' })).body).toEqual({ title: '用户名或密码错误', status: 401 })
    expect((await login('en-US', { userName: user.userName, password: 'Wrong0ne' })).body).toEqual({ title: 'Wrong user name or password', status: 401 })
    expect((await login('en', { userName: user.userName, password: DEFAULT_PASSWORD })).status).toBe(200)
  })

  it('translates validation messages, keeps the contract English ones, and fills values into patterns', async () => {
    const zh = await server.client().post('/api/account/register', { userName: 'ab', password: 'Str0ngPass', email: 'a@example.com' }, { 'Accept-Language': 'zh-CN' })
    expect(zh.body).toEqual({ title: '用户名过短', status: 400 })
    const en = await server.client().post('/api/account/register', { userName: 'ab', password: 'Str0ngPass', email: 'a@example.com' }, { 'Accept-Language': 'en-US' })
    expect(en.body).toEqual({ title: 'The user name is too short', status: 400 })
    const english = await server.client().post('/api/account/login', { userName: 'someone' }, { 'Accept-Language': 'en' })
    expect(english.body).toEqual({ title: 'The Password field is required.', status: 400 })

    const taken = await createUser(server)
    const body = { userName: taken.user.userName, password: 'Str0ngPass', email: `x${Date.now()}@example.com` }
    expect((await server.client().post('/api/account/register', body, { 'Accept-Language': 'zh' })).body).toEqual({ title: `用户名 ${taken.user.userName} 已存在`, status: 400 })
    expect((await server.client().post('/api/account/register', body, { 'Accept-Language': 'en' })).body).toEqual({ title: `The user name ${taken.user.userName} is taken`, status: 400 })
  })

  it('weighs the header like the reference: q-values first, then order, unsupported tags skipped', () => {
    expect(titleLanguage(undefined)).toBe('zh')
    expect(titleLanguage('en;q=0')).toBe('zh')
    expect(titleLanguage('de, *;q=0.5, en;q=0.4')).toBe('zh')
    expect(titleLanguage('de, en;q=0.5, *;q=0.4')).toBe('en')
    expect(titleLanguage('EN-us')).toBe('en')
    expect(titleLanguage('en;q=abc, zh')).toBe('zh')
  })
})
