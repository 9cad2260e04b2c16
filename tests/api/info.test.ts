import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('info', () => {
  it('GET /api/config answers the global config with the Flagwave additions', async () => {
    const res = await server.client().get('/api/config')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      title: 'Flagwave',
      slogan: '实时推送的 CTF 竞赛平台',
      footerInfo: null,
      beianInfo: null,
      logoHash: null,
      faviconHash: null,
      // The members of newer GZ::CTF versions (docs/compatibility.md#newer-gzctf-versions).
      defaultLifetime: 120,
      extensionDuration: 120,
      renewalWindow: 10,
      customTheme: null,
      logoUrl: null,
      portMapping: 'Default',
      apiPublicKey: null,
    })
  })

  it('GET /api/captcha answers None when captcha is off', async () => {
    const res = await server.client().get('/api/captcha')
    expect(res.body).toEqual({ type: 'None', siteKey: '' })
  })

  it('/healthz answers Healthy', async () => {
    const res = await server.client().get('/healthz')
    expect(res.status).toBe(200)
    expect(res.text).toBe('Healthy')
  })

  it('unknown /api paths answer a JSON 404, case-insensitive routes match', async () => {
    const res = await server.client().get('/api/nothing/here')
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ title: 'Not Found', status: 404 })
    expect((await server.client().get('/API/Config')).status).toBe(200)
  })
})
