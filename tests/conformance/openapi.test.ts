/**
 * The OpenAPI document generated from the route table (server/src/openapi): `/swagger` serves the
 * Swagger UI, `/swagger/v1/swagger.json` (the path GZ::CTF uses) is a valid OpenAPI 3.1 document
 * — checked with @seriousme/openapi-schema-validator against the official schema — with exactly
 * one operation per route, every path parameter declared, unique operation ids, and the success
 * response the route declares (JSON schema, empty body or download).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Validator } from '@seriousme/openapi-schema-validator'
import { allRoutes } from '../../server/src/routes/index.js'
import { bodyLimitOf } from '../../server/src/http/route.js'
import { startTestServer, type TestServer } from '../support/server.js'

let server: TestServer
let doc: { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>> }

interface Operation {
  operationId: string
  parameters: { name: string; in: string; required: boolean }[]
  requestBody?: { content: Record<string, unknown>; 'x-max-body-bytes'?: number }
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>
}

beforeAll(async () => {
  server = await startTestServer()
  const res = await server.client().get('/swagger/v1/swagger.json')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  doc = res.body
})
afterAll(async () => {
  await server?.close()
})

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

describe('/swagger', () => {
  it('serves the Swagger UI pointing at the document', async () => {
    const page = await server.client().get('/swagger')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.text).toContain('swagger-ui')
    const init = await server.client().get('/swagger/init.js')
    expect(init.text).toContain('/swagger/v1/swagger.json')
    for (const asset of ['/swagger/swagger-ui-bundle.js', '/swagger/swagger-ui.css']) {
      const res = await server.client().get(asset)
      expect(res.status, asset).toBe(200)
      expect(res.text.length, asset).toBeGreaterThan(1000)
    }
    expect((await server.client().get('/SWAGGER/index.html')).status).toBe(200)
  })
})

describe('/swagger/v1/swagger.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./)
    expect(doc.info.title).toMatch(/Flagwave/)
    const result = await new Validator().validate(structuredClone(doc) as unknown as Record<string, unknown>)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('has exactly one operation per route and nothing else', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
    const routes = allRoutes.map((r) => `${r.method} ${toOpenApiPath(r.path)}`)
    expect(operations.sort()).toEqual([...routes].sort())
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId))
    expect(new Set(ids).size).toBe(routes.length)
  })

  it.each(allRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s is described as the route declares it', (_, route) => {
    const op = doc.paths[toOpenApiPath(route.path)]![route.method.toLowerCase()]!
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1])
    expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathParams)
    expect(op.parameters.filter((p) => p.in === 'path').every((p) => p.required)).toBe(true)
    if (route.role) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']))
    if (route.body === 'multipart') expect(Object.keys(op.requestBody!.content)).toEqual(['multipart/form-data'])
    else if (route.body) expect(Object.keys(op.requestBody!.content)).toEqual(['application/json'])
    else expect(op.requestBody).toBeUndefined()
    // The route's body limit (docs/operations.md#request-limits) and its 413.
    if (route.body) {
      expect(op.requestBody!['x-max-body-bytes']).toBe(bodyLimitOf(route))
      expect(op.responses['413']).toBeDefined()
    }
    if (/^\/api\/proxy\//.test(route.path)) {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['101', '204']))
      return
    }
    if (route.response === 'redirect') {
      expect(Object.keys(op.responses)).toContain('302')
      return
    }
    const ok = op.responses['200']!
    if (route.response === 'empty') expect(ok.content).toBeUndefined()
    else if (typeof route.response === 'string') expect(Object.keys(ok.content!)).toEqual([route.response.slice('file:'.length)])
    else expect(ok.content!['application/json']!.schema).toBeTypeOf('object')
  })
})
