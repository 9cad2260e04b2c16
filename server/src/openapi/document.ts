/**
 * The OpenAPI 3.1 document, generated from the route table and the shared zod schemas — the same
 * schemas that validate requests and that the conformance test checks responses against.
 */
import { z } from 'zod'
import { bodyLimitOf, type RouteSpec } from '../http/route.js'

type JsonSchema = Record<string, unknown>

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema

const GROUPS: [RegExp, string][] = [
  [/^\/api\/account/i, 'account'],
  [/^\/api\/admin/i, 'admin'],
  [/^\/(api\/)?assets/i, 'assets'],
  [/^\/api\/edit/i, 'edit'],
  [/^\/api\/game/i, 'game'],
  [/^\/api\/proxy/i, 'proxy'],
  [/^\/api\/team/i, 'team'],
  [/^\/api\//i, 'info'],
]

const ROLE_NOTE: Record<string, string> = { User: 'RequireUser', Monitor: 'RequireMonitor', Admin: 'RequireAdmin' }

export function openApiDocument(routes: RouteSpec[], version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}')
    const params = pathParameters(r)
    const query = r.query ? queryParameters(r.query) : []
    const proxy = /^\/api\/proxy\//i.test(r.path)
    const operation: Record<string, unknown> = {
      operationId: operationId(r),
      tags: [GROUPS.find(([re]) => re.test(r.path))?.[1] ?? 'other'],
      summary: r.summary,
      description: [r.role ? `Caller: ${ROLE_NOTE[r.role] ?? r.role}` : 'Caller: anonymous', r.rateLimit ? `Rate limit: ${r.rateLimit}` : ''].filter(Boolean).join('. '),
      parameters: [...params, ...query],
      responses: {
        ...(proxy
          ? { '101': { description: 'WebSocket upgrade: the TCP tunnel' }, '204': { description: 'Not a WebSocket upgrade' } }
          : r.response === 'redirect'
            ? { '302': { description: 'Found: the Location header names the next page' } }
            : { '200': response(r.response) }),
        '400': { description: 'RequestResponse { title, status }', content: { 'application/json': { schema: REQUEST_RESPONSE } } },
        ...(r.role
          ? {
              '401': { description: '请先登录', content: { 'application/json': { schema: REQUEST_RESPONSE } } },
              '403': { description: '无权访问', content: { 'application/json': { schema: REQUEST_RESPONSE } } },
            }
          : {}),
        ...(r.rateLimit ? { '429': { description: 'Too many requests (Retry-After)', content: { 'application/json': { schema: REQUEST_RESPONSE } } } } : {}),
        ...(r.body ? { '413': { description: `Body larger than ${bodyLimitOf(r)} bytes (ProblemDetails)`, content: { 'application/problem+json': { schema: PROBLEM_DETAILS } } } } : {}),
      },
    }
    // The route's body limit (docs/operations.md#request-limits), also as a machine-readable extension.
    const limit = { description: `At most ${bodyLimitOf(r)} bytes.`, 'x-max-body-bytes': bodyLimitOf(r) }
    if (r.body === 'multipart') {
      operation.requestBody = { ...limit, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } } }
    } else if (r.body) {
      operation.requestBody = { ...limit, required: true, content: { 'application/json': { schema: toSchema(r.body, 'input') } } }
    }
    ;(paths[path] ??= {})[r.method.toLowerCase()] = operation
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Flagwave API (GZ::CTF v0.17.6 compatible)', version },
    servers: [{ url: '/' }],
    components: { securitySchemes: { cookie: { type: 'apiKey', in: 'cookie', name: 'GZCTF_Token' } } },
    security: [{ cookie: [] }],
    paths,
  }
}

const REQUEST_RESPONSE: JsonSchema = {
  type: 'object',
  properties: { title: { type: 'string' }, status: { type: 'integer' } },
  required: ['title', 'status'],
}

const PROBLEM_DETAILS: JsonSchema = {
  type: 'object',
  properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, traceId: { type: 'string' } },
  required: ['type', 'title', 'status', 'traceId'],
}

/** `POST /api/game/{id}/challenges/{challengeId}` → `postApiGameIdChallengesChallengeId`: unique per route. */
function operationId(r: RouteSpec): string {
  const words = r.path
    .split(/[/:.-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
  return r.method.toLowerCase() + words.join('')
}

/** Path parameters, typed from the route's `params` schema where it declares one. */
function pathParameters(r: RouteSpec): JsonSchema[] {
  const declared = r.params ? ((toSchema(r.params, 'input') as { properties?: Record<string, JsonSchema> }).properties ?? {}) : {}
  return [...r.path.matchAll(/:(\w+)/g)].map(([, name]) => {
    const { $schema: _, ...schema } = declared[name!] ?? { type: 'string' }
    return { name, in: 'path', required: true, schema }
  })
}

function queryParameters(schema: z.ZodType): JsonSchema[] {
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] }
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: json.required?.includes(name) ?? false, schema: s }))
}

function response(spec: Exclude<RouteSpec['response'], 'redirect'>): JsonSchema {
  if (!spec) return { description: 'OK' }
  if (spec === 'empty') return { description: 'OK, empty body' }
  if (typeof spec === 'string') return { description: 'File download', content: { [spec.slice(5)]: { schema: { type: 'string', format: 'binary' } } } }
  return { description: 'OK', content: { 'application/json': { schema: toSchema(spec, 'output') } } }
}
