/**
 * The route table. Every endpoint is declared once as a `RouteSpec`; `mountRoutes` turns the
 * specs into Koa middleware in the order of docs/architecture.md#request-flow (rate limit → authorize → body limit →
 * parse body → validate → handler), and the permission-matrix and conformance tests read the same table.
 *
 * A handler returns the success value: `undefined` answers 200 with an empty body, anything
 * else is written as JSON (a string becomes a JSON string literal, docs/compatibility.md#content-types-and-success-bodies). A handler
 * that streams a file sets `ctx.body` itself and returns `RAW`.
 */
import type { Context, Middleware } from 'koa'
import type Router from '@koa/router'
import { z } from 'zod'
import type { Role } from '@flagwave/shared/enums'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { assertEnrolled, assertRole, assertTokenScope } from './auth.js'
import type { TokenScope } from '@flagwave/shared/schemas/tokens'
import { bodyLimit, jsonBody, multipartBody } from './body.js'
import type { UploadedFile } from '../lib/uploads.js'
import { JsonText, msTimesJson } from '../lib/jsonText.js'
import { wantsNewerForms } from './compat.js'
import { etagMatches } from './scoreboardRead.js'
import type { Scope } from '../domain/scope.js'
import type { Actor } from '../domain/actor.js'
import { parseOrThrow, parseParamsOrNotFound } from './validate.js'
import { rateLimit, type PolicyName } from './rateLimit.js'
import { routeLabel } from '../lib/metrics.js'

export const RAW = Symbol('raw response')

type Schema = z.ZodType

interface RouteInput<B, Q, P, A extends Actor | null = Actor | null> {
  body: B
  query: Q
  params: P
  files: UploadedFile[]
  /** The signed-in caller: never null on a route with a `role`; null when anonymous otherwise. */
  actor: A
  /** What the domain command needs: this request's unit of work, services and outbox. */
  scope: Scope
}

export interface RouteSpec<
  B extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  P extends Schema | undefined = Schema | undefined,
  R extends Role | undefined = Role | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** A @koa/router path, e.g. `/api/game/:id/challenges/:cid`. */
  path: string
  /** Minimum role; absent = anonymous (the session is still loaded when present). */
  role?: R
  rateLimit?: PolicyName
  /**
   * What an API token must hold to call the route (docs/architecture.md#api-tokens): a scope, or
   * `'never'` for routes no token may call (password, e-mail, tokens, two-factor). Absent: derived
   * by `tokenScopeOf` (GET → read/monitor/admin by role, other methods → admin).
   */
  token?: TokenScope | 'never'
  /** Reachable by an account that the two-factor policy holds at enrolment (docs/architecture.md#two-factor-authentication). */
  enrolment?: true
  /** JSON body schema, or 'multipart' for upload endpoints. */
  body?: B | 'multipart'
  /**
   * The largest request body in bytes, a `BODY_LIMITS` value (docs/operations.md#request-limits).
   * Default `BODY_LIMITS.json` (64 KiB), also for routes without a body; an upload route must
   * name its own. A larger body is refused with 413 before it is parsed.
   */
  bodyLimit?: number
  query?: Q
  /** Typed path parameters; a value failing its constraint matches no endpoint (404). */
  params?: P
  /**
   * The success response, for the OpenAPI document and the conformance test: a zod schema of the
   * JSON body, 'empty' for 200 with no body, a media type for file downloads, or 'redirect' for a
   * 302 whose Location names the next page (the single sign-on routes a browser follows).
   */
  response?: z.ZodType | 'empty' | 'redirect' | `file:${string}`
  /** A short note for the OpenAPI document. */
  summary?: string
  handler: (
    ctx: Context,
    input: RouteInput<
      B extends Schema ? z.output<B> : undefined,
      Q extends Schema ? z.output<Q> : undefined,
      P extends Schema ? z.output<P> : Record<string, string>,
      R extends Role ? Actor : Actor | null
    >,
  ) => Promise<unknown>
}

/** Declare a route with full type inference of its inputs. */
export function route<
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
  R extends Role | undefined = undefined,
>(spec: RouteSpec<B, Q, P, R>): RouteSpec {
  return spec as unknown as RouteSpec
}

/**
 * The same route under a second path: GZ::CTF renamed some paths (`…/prolong` → `…/extend`,
 * `teamhashsalt` → `hashsalt`) and clients of both generations call them
 * (docs/compatibility.md#newer-gzctf-versions).
 */
export const servedAlsoAt = (spec: RouteSpec, path: string, summary: string): RouteSpec => ({ ...spec, path, summary })

export function mountRoutes(router: Router, routes: RouteSpec[]): void {
  for (const spec of routes) {
    const chain: Middleware[] = []
    const label = routeLabel(spec.method, spec.path)
    chain.push((ctx, next) => {
      ctx.routeLabel = label
      return next()
    })
    // A path parameter failing its type constraint means no endpoint matched (docs/compatibility.md#paths-and-routing),
    // so it is checked before anything else, authorization included.
    if (spec.params) {
      const paramsSchema = spec.params
      chain.push(async (ctx, next) => {
        ctx.state.params = parseParamsOrNotFound(paramsSchema, ctx.params)
        await next()
      })
    }
    if (spec.rateLimit) chain.push(rateLimit(spec.rateLimit))
    const role = spec.role
    const tokenScope = tokenScopeOf(spec)
    chain.push(async (ctx, next) => {
      if (role) assertRole(ctx, role)
      if (ctx.state.token) assertTokenScope(ctx.state.token.scopes, tokenScope)
      if (role && !spec.enrolment) await assertEnrolled(ctx)
      await next()
    })
    const maxBytes = bodyLimitOf(spec)
    chain.push(bodyLimit(maxBytes))
    if (spec.body === 'multipart') chain.push(multipartBody(maxBytes))
    else if (spec.body) chain.push(jsonBody(maxBytes))
    chain.push(async (ctx) => {
      const params = spec.params ? ctx.state.params : ctx.params
      const query = spec.query ? parseOrThrow(spec.query, ctx.query) : undefined
      const body = spec.body && spec.body !== 'multipart' ? parseOrThrow(spec.body, ctx.request.body) : undefined
      const files = spec.body === 'multipart' ? (ctx.state.files as UploadedFile[]) : []
      const user = ctx.state.user
      const actor: Actor | null = user ? { user, ip: ctx.clientIp } : null
      const scope: Scope = { em: ctx.em, services: ctx.services, events: ctx.outbox, log: ctx.state.log }
      const input = { body, query, params, files, actor, scope } as RouteInput<unknown, unknown, unknown>
      const result = await (spec.handler as (ctx: Context, input: RouteInput<unknown, unknown, unknown>) => Promise<unknown>)(ctx, input)
      if (result === RAW) return
      ctx.status = 200
      if (result === undefined) {
        ctx.body = ''
        ctx.remove('Content-Type')
        return
      }
      ctx.type = 'application/json; charset=utf-8'
      const newer = wantsNewerForms(ctx)
      if (!(result instanceof JsonText)) {
        ctx.body = newer ? msTimesJson(result) : JSON.stringify(result)
        return
      }
      if (result.etag) {
        ctx.set('ETag', result.etag)
        ctx.vary('X-GZCTF-Compat')
        if (etagMatches(ctx.get('If-None-Match'), result.etag)) {
          ctx.status = 304
          return
        }
      }
      ctx.body = newer ? result.ms : result.text
    })
    const method = spec.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'
    router[method](spec.path, ...chain)
  }
}

/** What a token must hold for `spec` (docs/architecture.md#api-tokens). */
export function tokenScopeOf(spec: Pick<RouteSpec, 'method' | 'role' | 'token'>): TokenScope | 'never' {
  if (spec.token) return spec.token
  if (spec.method !== 'GET') return 'admin'
  return spec.role === 'Admin' ? 'admin' : spec.role === 'Monitor' ? 'monitor' : 'read'
}

/** The body limit a route is mounted with (also shown in the OpenAPI document). */
export function bodyLimitOf(spec: Pick<RouteSpec, 'method' | 'path' | 'body' | 'bodyLimit'>): number {
  if (spec.body === 'multipart' && spec.bodyLimit === undefined) throw new Error(`${spec.method} ${spec.path}: an upload route names its bodyLimit`)
  return spec.bodyLimit ?? BODY_LIMITS.json
}

/** Path-parameter schemas shared by many routes. */
export const intParam = z.string().regex(/^[+-]?\d{1,10}$/).transform(Number).pipe(z.number().int().min(-2147483648).max(2147483647))
export const guidParam = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/)
  .transform((s) => s.toLowerCase().replace(/^(.{8})-?(.{4})-?(.{4})-?(.{4})-?(.{12})$/, '$1-$2-$3-$4-$5'))
