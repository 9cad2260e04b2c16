/**
 * Posts (docs/compatibility.md#group-edit, #group-info): public reads (pinned first, then newest; latest
 * 20; served from a cache that every change invalidates), admin create / full-replacement update
 * / delete, and the pin rule that never wipes a post (docs/compatibility.md#deliberate-departures, #neighbouring-versions).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { PostDetailModel, PostInfoModel } from '@flagwave/shared/schemas/posts'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import type { ApiClient } from '../support/client.js'
import { Post } from '../../server/src/entities/Post.js'

let server: TestServer
let admin: ApiClient
beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const countPosts = () => em().count(Post, {})

async function createPost(body: Record<string, unknown>): Promise<string> {
  const res = await admin.post('/api/edit/posts', body)
  expect(res.status).toBe(200)
  expect(res.body).toMatch(/^[0-9a-f]{8}$/)
  return res.body as string
}

describe('POST /api/edit/posts', () => {
  it('creates a post authored by the caller and answers its 8-hex id as a JSON string', async () => {
    const id = await createPost({ title: 'Hello', summary: 'short', content: '# Body', tags: ['news', 'ctf'], isPinned: false })
    const res = await server.client().get(`/api/posts/${id}`)
    expect(res.status).toBe(200)
    const post = PostDetailModel.parse(res.body)
    expect(post).toMatchObject({ id, title: 'Hello', summary: 'short', content: '# Body', tags: ['news', 'ctf'], isPinned: false, authorName: 'Admin', authorAvatar: null })
    expect(Date.now() - Date.parse(post.time)).toBeLessThan(60_000)
  })

  it('defaults omitted members (summary, content "", tags [], not pinned)', async () => {
    const id = await createPost({ title: 'Only a title' })
    expect((await server.client().get(`/api/posts/${id}`)).body).toMatchObject({ summary: '', content: '', tags: [], isPinned: false })
  })

  it.each([
    [{}, '标题是必需的'],
    [{ title: '' }, '标题是必需的'],
    [{ title: 'x'.repeat(51) }, '标题过长'],
    [{ title: 'ok', summary: null }, 'The Summary field is required.'],
    [{ title: 'ok', content: null }, 'The Content field is required.'],
  ])('400 for %j → %s, nothing created', async (body, title) => {
    const before = await countPosts()
    const res = await admin.post('/api/edit/posts', body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title, status: 400 })
    expect(await countPosts()).toBe(before)
  })

  it('401 anonymous; 403 for User and Monitor', async () => {
    const before = await countPosts()
    expect((await server.client().post('/api/edit/posts', { title: 'x' })).body).toEqual({ title: '请先登录', status: 401 })
    for (const role of ['User', 'Monitor'] as const) {
      const u = await createUser(server, { role })
      expect((await u.client.post('/api/edit/posts', { title: 'x' })).body).toEqual({ title: '无权访问', status: 403 })
    }
    expect(await countPosts()).toBe(before)
  })
})

describe('GET /api/posts, /api/posts/latest, /api/posts/{id}', () => {
  it('orders pinned first, then by update time (newest first); latest has at most 20', async () => {
    await em().nativeDelete(Post, {})
    const ids: string[] = []
    for (let i = 0; i < 22; i++) ids.push(await createPost({ title: `post ${i}`, isPinned: i === 3 || i === 10 }))
    const all = z.array(PostInfoModel).parse((await server.client().get('/api/posts')).body)
    expect(all).toHaveLength(22)
    expect(all.slice(0, 2).map((p) => p.id)).toEqual([ids[10], ids[3]])
    const rest = ids.filter((_, i) => i !== 3 && i !== 10).reverse()
    expect(all.slice(2).map((p) => p.id)).toEqual(rest)
    expect(all[0]).not.toHaveProperty('content')
    const latest = z.array(PostInfoModel).parse((await server.client().get('/api/posts/latest')).body)
    expect(latest.map((p) => p.id)).toEqual(all.slice(0, 20).map((p) => p.id))
  })

  it('404 文章不存在 for an unknown id; other lengths match no endpoint', async () => {
    const res = await server.client().get('/api/posts/00000000')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ title: '文章不存在', status: 404 })
    const short = await server.client().get('/api/posts/abc')
    expect(short.status).toBe(404)
    expect(short.body.title).toBe('Not Found')
  })

  it('the cached list follows every change at once', async () => {
    const id = await createPost({ title: 'cached' })
    expect((await server.client().get('/api/posts')).body.some((p: { id: string }) => p.id === id)).toBe(true)
    await admin.put(`/api/edit/posts/${id}`, { title: 'cached, edited' })
    expect((await server.client().get(`/api/posts/${id}`)).body.title).toBe('cached, edited')
    expect((await server.client().get('/api/posts')).body.find((p: { id: string }) => p.id === id).title).toBe('cached, edited')
    await admin.delete(`/api/edit/posts/${id}`)
    expect((await server.client().get('/api/posts')).body.some((p: { id: string }) => p.id === id)).toBe(false)
    expect((await server.client().get(`/api/posts/${id}`)).status).toBe(404)
  })
})

describe('PUT /api/edit/posts/{id}', () => {
  it('is a full replacement: omitted members reset, the editor becomes author, time moves', async () => {
    const id = await createPost({ title: 'Full', summary: 's', content: 'c', tags: ['t'] })
    const before = (await server.client().get(`/api/posts/${id}`)).body
    const editor = await createUser(server, { role: 'Admin' })
    await new Promise((r) => setTimeout(r, 10))
    const res = await editor.client.put(`/api/edit/posts/${id}`, { title: 'Replaced' })
    expect(res.status).toBe(200)
    const post = PostDetailModel.parse(res.body)
    expect(post).toMatchObject({ id, title: 'Replaced', summary: '', content: '', tags: [], isPinned: false, authorName: editor.user.userName })
    expect(Date.parse(post.time)).toBeGreaterThan(Date.parse(before.time))
  })

  it('a pin toggle (isPinned differs) only changes the pin — the post is never wiped', async () => {
    const id = await createPost({ title: 'Keep me', summary: 'sum', content: 'body', tags: ['a', 'b'] })
    const before = PostDetailModel.parse((await server.client().get(`/api/posts/${id}`)).body)
    // The reference client pins by sending only {title, isPinned}.
    let res = await admin.put(`/api/edit/posts/${id}`, { title: before.title, isPinned: true })
    expect(res.status).toBe(200)
    expect(PostDetailModel.parse(res.body)).toEqual({ ...before, isPinned: true })
    expect((await server.client().get('/api/posts')).body[0].id).toBe(id)
    res = await admin.put(`/api/edit/posts/${id}`, { title: 'ignored', isPinned: false })
    expect(res.body).toEqual({ ...before, isPinned: false })
    const row = await em().findOneOrFail(Post, { id })
    expect(row).toMatchObject({ title: 'Keep me', summary: 'sum', content: 'body', tags: ['a', 'b'], isPinned: false })
  })

  it('400 validation (nothing changed), 404 文章未找到, other id lengths match nothing, 401/403', async () => {
    const id = await createPost({ title: 'Stable', content: 'x' })
    let res = await admin.put(`/api/edit/posts/${id}`, { title: 'x'.repeat(51) })
    expect(res.body).toEqual({ title: '标题过长', status: 400 })
    res = await admin.put('/api/edit/posts/ffffffff', { title: 'x' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ title: '文章未找到', status: 404 })
    expect((await admin.put('/api/edit/posts/fff', { title: 'x' })).status).toBe(404)
    expect((await server.client().put(`/api/edit/posts/${id}`, { title: 'x' })).status).toBe(401)
    const monitor = await createUser(server, { role: 'Monitor' })
    expect((await monitor.client.put(`/api/edit/posts/${id}`, { title: 'x' })).status).toBe(403)
    expect(await em().findOneOrFail(Post, { id })).toMatchObject({ title: 'Stable', content: 'x' })
  })
})

describe('DELETE /api/edit/posts/{id}', () => {
  it('deletes (empty body), then 404 文章未找到; 401/403', async () => {
    const id = await createPost({ title: 'Doomed' })
    const user = await createUser(server)
    expect((await user.client.delete(`/api/edit/posts/${id}`)).status).toBe(403)
    expect((await server.client().delete(`/api/edit/posts/${id}`)).status).toBe(401)
    let res = await admin.delete(`/api/edit/posts/${id}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await em().count(Post, { id })).toBe(0)
    res = await admin.delete(`/api/edit/posts/${id}`)
    expect(res.body).toEqual({ title: '文章未找到', status: 404 })
  })

  it('records post changes in the audit log', async () => {
    const id = await createPost({ title: 'Logged' })
    await admin.delete(`/api/edit/posts/${id}`)
    const rows = await em().execute<{ message: string }[]>('select message from logs')
    expect(rows.map((r) => r.message)).toEqual(expect.arrayContaining([`添加文章 ${id}：Logged`, `删除文章 ${id}：Logged`]))
  })
})
