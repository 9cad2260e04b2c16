/**
 * The HTTP request handler: the scoreboard read without Koa, then the Koa application. Middleware order is the
 * request flow of docs/architecture.md#request-flow; the routers come from the one route table in routes/index.ts.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RequestListener } from 'node:http'
import Koa from 'koa'
import Router from '@koa/router'
import send from 'koa-send'
import type { Services } from './services.js'
import { clientIp } from './http/clientIp.js'
import { requestContext } from './http/requestContext.js'
import { errorMiddleware } from './http/errorMiddleware.js'
import { scoreboardReads } from './http/scoreboardRead.js'
import { captureHotReads, hotReads } from './http/hotReads.js'
import { apiSecurityHeaders, inlineScriptHashesOf, securityHeaders } from './http/securityHeaders.js'
import { hotSubmissions } from './http/hotSubmissions.js'
import { loadSession, syncSignedInMarker } from './http/auth.js'
import { compression } from './http/compression.js'
import { globalRateLimit } from './http/rateLimit.js'
import { xsrf } from './http/xsrf.js'
import { mountRoutes } from './http/route.js'
import { AppError } from './lib/errors.js'
import { allRoutes } from './routes/index.js'
import { swagger } from './openapi/swagger.js'
import { sitePolicyOf } from './lib/crossSite.js'
import { requestMetrics } from './http/requestMetrics.js'
import { routeLabel } from './lib/metrics.js'

const HEALTHZ_ROUTE = routeLabel('GET', '/healthz')

export const CLIENT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../client/dist')

function createApp(services: Services): Koa {
  const app = new Koa({ proxy: services.config.TRUST_PROXY })
  app.context.services = services
  app.silent = true

  const router = new Router({ sensitive: false, strict: false })
  mountRoutes(router, allRoutes)

  const sitePolicy = sitePolicyOf(services.config)
  app.use(requestMetrics())
  app.use(clientIp(sitePolicy.trust))
  // Errors are mapped inside the request context, so that the access log records the status that was sent.
  app.use(requestContext())
  app.use(errorMiddleware())
  app.use(securityHeaders(securityOptionsOf(services)))
  app.use(async (ctx, next) => {
    if (ctx.path !== '/healthz') return next()
    ctx.routeLabel = HEALTHZ_ROUTE
    ctx.type = 'text/plain'
    ctx.body = 'Healthy'
  })
  app.use(compression())
  app.use(serveClient())
  if (services.config.enableSwagger) app.use(swagger(services.config.BUILD_TAG))
  app.use(loadSession())
  app.use(globalRateLimit())
  app.use(xsrf(sitePolicy))
  app.use(captureHotReads())
  app.use(router.routes())
  app.use(fallback())
  return app
}

/**
 * What the HTTP server hands each request to: flag submissions (http/hotSubmissions.ts), the answers
 * a player's screens repeat (http/hotReads.ts) and the scoreboard in memory (http/scoreboardRead.ts)
 * straight from Node's request event, everything else to the Koa application.
 */
export function requestListener(services: Services): RequestListener {
  const policy = sitePolicyOf(services.config)
  const trust = policy.trust
  const koa = hotReads(services, trust, scoreboardReads(services, trust, createApp(services).callback()))
  // The headers every API answer of Koa carries (securityHeaders, and compression's Vary), for the submissions sent without it.
  const headers: [string, string][] = [...apiSecurityHeaders(securityOptionsOf(services)), ['Vary', 'Accept-Encoding']]
  return hotSubmissions(services, policy, headers, koa)
}

const securityOptionsOf = (services: Services) => ({ inlineScriptHashes: inlineScriptHashesOf(path.join(CLIENT_DIST, 'index.html')), captchaProvider: services.config.CAPTCHA_PROVIDER })

/** The built SPA: hashed assets cached for a year, other files for a week (docs/compatibility.md#other-global-rules). */
function serveClient(): Koa.Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/') || ctx.path.startsWith('/hub/') || ctx.path.startsWith('/assets/')) {
      return next()
    }
    const last = ctx.path.split('/').pop() ?? ''
    if (!last.includes('.') || !fs.existsSync(CLIENT_DIST)) return next()
    try {
      await send(ctx, ctx.path, {
        root: CLIENT_DIST,
        maxage: ctx.path.startsWith('/static/') ? 365 * 24 * 3600 * 1000 : 7 * 24 * 3600 * 1000,
        immutable: ctx.path.startsWith('/static/'),
      })
    } catch (err) {
      if ((err as { status?: number }).status === 404) return next()
      throw err
    }
  }
}

/**
 * Unmatched requests: API and hub paths get a JSON 404 (a deliberate departure, docs/compatibility.md#deliberate-departures, from the reference's
 * SPA answer here on purpose); every other GET without a file extension gets the SPA.
 */
function fallback(): Koa.Middleware {
  const index = path.join(CLIENT_DIST, 'index.html')
  return async (ctx) => {
    const apiLike = /^\/(api|hub|assets)(\/|$)/i.test(ctx.path)
    const last = ctx.path.split('/').pop() ?? ''
    if (!apiLike && (ctx.method === 'GET' || ctx.method === 'HEAD') && !last.includes('.') && fs.existsSync(index)) {
      ctx.type = 'text/html; charset=utf-8'
      ctx.set('Cache-Control', 'no-cache')
      syncSignedInMarker(ctx)
      ctx.body = fs.createReadStream(index)
      return
    }
    throw new AppError(404, 'Not Found', 404, { kind: 'problem' })
  }
}
