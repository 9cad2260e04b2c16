/**
 * `/swagger`: Swagger UI (from the swagger-ui-dist package) over `/swagger/v1/swagger.json`,
 * the path GZ::CTF uses for its document.
 */
import path from 'node:path'
import { createRequire } from 'node:module'
import type { Middleware } from 'koa'
import send from 'koa-send'
import { allRoutes } from '../routes/index.js'
import { openApiDocument } from './document.js'

const uiRoot = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Flagwave API</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg"><link rel="stylesheet" href="/swagger/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/swagger/swagger-ui-bundle.js"></script>
<script src="/swagger/init.js"></script></body></html>`

const INIT = `window.ui = SwaggerUIBundle({ url: '/swagger/v1/swagger.json', dom_id: '#swagger-ui' })`

export function swagger(version: string): Middleware {
  let document: string | null = null
  return async (ctx, next) => {
    const p = ctx.path.toLowerCase()
    if (!p.startsWith('/swagger') || ctx.method !== 'GET') return next()
    if (p === '/swagger' || p === '/swagger/' || p === '/swagger/index.html') {
      ctx.type = 'text/html; charset=utf-8'
      ctx.body = PAGE
    } else if (p === '/swagger/v1/swagger.json') {
      document ??= JSON.stringify(openApiDocument(allRoutes, version))
      ctx.type = 'application/json; charset=utf-8'
      ctx.body = document
    } else if (p === '/swagger/init.js') {
      ctx.type = 'application/javascript'
      ctx.body = INIT
    } else if (/^\/swagger\/[\w.-]+\.(js|css|png)$/.test(p)) {
      await send(ctx, p.slice('/swagger/'.length), { root: uiRoot, maxage: 24 * 3600 * 1000 })
    } else {
      return next()
    }
  }
}
