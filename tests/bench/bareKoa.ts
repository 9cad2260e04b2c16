/**
 * The bench's baseline (docs/operations.md#benchmarks): a bare Koa process — its own process, as a
 * deployment would run one, so the platform's background work never slows the baseline down and
 * flatters the ratios. `/` answers `{"ok":true}`; `/json` and `/gzip` send the bytes of the files
 * named by BARE_JSON and BARE_GZIP, as the platform would. Prints the port once it listens.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Koa from 'koa'

const json = process.env.BARE_JSON ? fs.readFileSync(process.env.BARE_JSON, 'utf8') : '{}'
const gzip = process.env.BARE_GZIP ? fs.readFileSync(process.env.BARE_GZIP) : Buffer.alloc(0)
const app = new Koa()
app.use((ctx) => {
  if (ctx.path === '/json') {
    ctx.type = 'application/json; charset=utf-8'
    ctx.body = json
  } else if (ctx.path === '/gzip') {
    ctx.type = 'application/json; charset=utf-8'
    ctx.set('Content-Encoding', 'gzip')
    ctx.body = gzip
  } else ctx.body = { ok: true }
})
const server = http.createServer(app.callback()).listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`)
})
