/**
 * The opt-in to GZ::CTF's newer wire forms (docs/compatibility.md#newer-gzctf-versions): a request carrying
 * `X-GZCTF-Compat: 1.8` (any version from 1.1, when GZ::CTF moved to millisecond times) gets times
 * as Unix milliseconds, the 1.8 admin write-up list and status 10002 for "game ended". Without it
 * every answer is v0.17.6's, with the newer members beside the old ones.
 */
import type { Context } from 'koa'

const VERSION = /^\s*(\d+)\.(\d+)/

/** Whether the request asked for the newer forms; memoised on the request. */
export function wantsNewerForms(ctx: Context): boolean {
  if (ctx.state.newerForms === undefined) {
    const match = VERSION.exec(ctx.get('X-GZCTF-Compat'))
    ctx.state.newerForms = !!match && (Number(match[1]) > 1 || (Number(match[1]) === 1 && Number(match[2]) >= 1))
  }
  return ctx.state.newerForms as boolean
}
