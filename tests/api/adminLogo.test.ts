/**
 * The platform logo (docs/compatibility.md#branding): POST/DELETE /api/admin/config/logo set and
 * remove the logo and the favicon made from it; /api/config and /api/admin/config name them by
 * hash; a replaced or removed logo releases its files; bad uploads answer 400 and change nothing.
 */
import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GlobalConfig } from '@flagwave/shared/schemas/config'
import { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { fileRow } from '../support/factories/games.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

/** A 600 × 200 PNG of random colour (the store is content-addressed, also for the scaled-down favicon). */
function logoPng(): Promise<Buffer> {
  const raw = Buffer.alloc(600 * 200 * 3)
  for (let i = 0; i < raw.length; i += 3) raw.set(randomBytes(3), i)
  return sharp(raw, { raw: { width: 600, height: 200, channels: 3 } }).png().toBuffer()
}

const upload = (client: ApiClient, data: Uint8Array | string, name = 'logo.png') => client.upload('POST', '/api/admin/config/logo', [['file', name, data, 'image/png']])

async function served(url: string): Promise<Buffer> {
  const res = await fetch(server.url + url)
  expect(res.status).toBe(200)
  return Buffer.from(await res.arrayBuffer())
}

async function publicConfig(): Promise<GlobalConfig> {
  const res = await server.client().get('/api/config')
  expect(res.status).toBe(200)
  return GlobalConfig.parse(res.body)
}

describe('POST/DELETE /api/admin/config/logo', () => {
  it('sets the logo and a 256-pixel favicon, replaces them releasing the old files, and removes them', async () => {
    expect(await publicConfig()).toMatchObject({ title: 'Flagwave', logoHash: null, faviconHash: null })

    const res = await upload(admin, await logoPng())
    expect(res.status).toBe(200)
    const config = await publicConfig()
    expect(config.logoHash).toMatch(/^[0-9a-f]{64}$/)
    expect(config.faviconHash).toMatch(/^[0-9a-f]{64}$/)
    expect(res.body).toBe(`/assets/${config.logoHash}/logo.webp`)
    expect((await admin.get('/api/admin/config')).body.globalConfig).toMatchObject({ logoHash: config.logoHash, faviconHash: config.faviconHash })

    expect(await sharp(await served(`/assets/${config.logoHash}/logo`)).metadata()).toMatchObject({ format: 'webp', width: 600, height: 200 })
    expect(await sharp(await served(`/assets/${config.faviconHash}/favicon`)).metadata()).toMatchObject({ format: 'webp', width: 256 })

    // Replaced: the old files go with their last reference.
    expect((await upload(admin, await logoPng())).status).toBe(200)
    const next = await publicConfig()
    expect(next.logoHash).not.toBe(config.logoHash)
    expect(await fileRow(server, config.logoHash!)).toBeNull()
    expect(await fileRow(server, config.faviconHash!)).toBeNull()
    expect(await fileRow(server, next.logoHash!)).not.toBeNull()

    // Removed: null again, files released; removing twice is fine.
    expect((await admin.delete('/api/admin/config/logo')).status).toBe(200)
    expect(await publicConfig()).toMatchObject({ logoHash: null, faviconHash: null })
    expect(await fileRow(server, next.logoHash!)).toBeNull()
    expect(await fileRow(server, next.faviconHash!)).toBeNull()
    expect((await admin.delete('/api/admin/config/logo')).status).toBe(200)

    const logs = LogMessageModel.array().parse((await admin.get('/api/admin/logs?count=20')).body)
    expect(logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['更新了平台标志', '移除了平台标志']))
  })

  it('refuses an empty file, a non-image and a missing part with 400, changing nothing', async () => {
    expect((await upload(admin, await logoPng())).status).toBe(200)
    const before = await publicConfig()
    for (const [body, title] of [
      [Buffer.alloc(0), '文件非法'],
      ['this is not an image', '文件创建失败'],
    ] as const) {
      const res = await upload(admin, body)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ title, status: 400 })
    }
    const missing = await admin.upload('POST', '/api/admin/config/logo', [])
    expect(missing.status).toBe(400)
    expect(await publicConfig()).toEqual(before)
    expect(await fileRow(server, before.logoHash!)).not.toBeNull()
  })

  it('is for admins only; PUT /api/admin/config does not take the hashes', async () => {
    const before = await publicConfig()
    expect((await upload(server.client(), await logoPng())).status).toBe(401)
    expect((await server.client().delete('/api/admin/config/logo')).status).toBe(401)
    expect((await admin.put('/api/admin/config', { globalConfig: { logoHash: 'a'.repeat(64), faviconHash: null } })).status).toBe(200)
    expect(await publicConfig()).toEqual(before)
  })
})
