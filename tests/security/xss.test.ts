/**
 * Stored XSS at the API level (the browser side is covered by the posts browser test): markup in
 * posts, notices, team and profile fields is stored and returned verbatim as JSON — never
 * rendered, sanitized into something else or executed on the server — every JSON answer carries
 * `X-Content-Type-Options: nosniff`, and uploaded files (HTML, SVG) are only ever served as
 * downloads, so a browser never renders them in the platform's origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PostDetailModel, PostInfoModel } from '@flagwave/shared/schemas/posts'
import { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { createGame } from '../support/factories/games.js'
import type { ApiClient, ApiResponse } from '../support/client.js'

let server: TestServer
let admin: ApiClient

const SCRIPT = '<script>window.__pwned = 1</script>'
const MARKDOWN = [
  '# Title <img src=x onerror="window.__pwned=1">',
  '',
  SCRIPT,
  '[click](javascript:window.__pwned=1) <a href="javascript:alert(1)">x</a>',
  '<svg/onload=alert(1)> &lt;already escaped&gt; &amp; "quotes" \'single\' `tick`',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '{{constructor.constructor("return process")()}} ${process.exit(1)} <%= 7*7 %>',
].join('\n')

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

function expectJson(res: ApiResponse) {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
}

describe('stored markup comes back verbatim, as JSON', () => {
  it('posts: title, summary, content and tags', async () => {
    const created = await admin.post('/api/edit/posts', { title: `<b>${SCRIPT.slice(0, 20)}</b>`, summary: SCRIPT, content: MARKDOWN, tags: [SCRIPT] })
    expect(created.status).toBe(200)
    const id = created.body as string
    for (const client of [server.client(), admin]) {
      const detail = await client.get(`/api/posts/${id}`)
      expectJson(detail)
      const post = PostDetailModel.parse(detail.body)
      expect(post.content).toBe(MARKDOWN)
      expect(post.summary).toBe(SCRIPT)
      expect(post.title).toBe(`<b>${SCRIPT.slice(0, 20)}</b>`)
      expect(post.tags).toEqual([SCRIPT])
      // The raw text is JSON-escaped, not HTML: no markdown rendering happened on the server.
      expect(detail.text).not.toContain('<h1>')
      expect(JSON.parse(detail.text).content).toBe(MARKDOWN)
    }
    const list = await server.client().get('/api/posts')
    expectJson(list)
    expect((list.body as PostInfoModel[]).find((p) => p.id === id)?.summary).toBe(SCRIPT)
    // The server is still alive and unaffected by template-looking text.
    expect((await server.client().get('/healthz')).text).toBe('Healthy')
  })

  it('game notices and game descriptions', async () => {
    const game = await createGame(server, { content: MARKDOWN, summary: SCRIPT })
    const notice = await admin.post(`/api/edit/games/${game.id}/notices`, { content: MARKDOWN })
    expect(notice.status).toBe(200)
    const notices = await server.client().get(`/api/game/${game.id}/notices`)
    expectJson(notices)
    expect((notices.body as { content: string }[]).map((n) => n.content)).toContain(MARKDOWN)
    const detail = await server.client().get(`/api/game/${game.id}`)
    expectJson(detail)
    expect(detail.body).toMatchObject({ content: MARKDOWN, summary: SCRIPT })
  })

  it('team names and bios, profiles', async () => {
    const u = await createUser(server)
    const created = await u.client.post('/api/team', { name: '<i>x</i>"\'&', bio: '<img src=x onerror=alert(1)>' })
    expect(created.status).toBe(200)
    const team = TeamInfoModel.parse(created.body)
    const read = await server.client().get(`/api/team/${team.id}`)
    expectJson(read)
    expect(read.body).toMatchObject({ name: '<i>x</i>"\'&', bio: '<img src=x onerror=alert(1)>' })
    expect((await u.client.put('/api/account/update', { bio: SCRIPT, realName: '<i>R' })).status).toBe(200)
    const profile = await u.client.get('/api/account/profile')
    expectJson(profile)
    expect(profile.body).toMatchObject({ bio: SCRIPT, realName: '<i>R' })
  })

  it('error bodies that echo input stay JSON', async () => {
    const res = await admin.put(`/api/admin/participation/1/${encodeURIComponent('<script>')}`)
    expect(res.status).toBe(400)
    expectJson(res)
    expect(res.body).toEqual({ title: "The value '<script>' is not valid.", status: 400 })
    const unknown = await server.client().get(`/api/${encodeURIComponent('<script>alert(1)</script>')}`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('content-type')).toMatch(/json/)
  })
})

describe('uploaded files are served as downloads only', () => {
  it.each([
    ['page.html', '<html><script>window.__pwned=1</script></html>'],
    ['image.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>'],
    ['script.js', 'window.__pwned = 1'],
  ])('%s', async (name, content) => {
    const up = await admin.upload('POST', '/api/assets', [['files', name, content, 'text/html']])
    expect(up.status).toBe(200)
    const [file] = up.body as { hash: string; name: string }[]
    const res = await server.client().get(`/assets/${file!.hash}/${name}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe(content)
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
