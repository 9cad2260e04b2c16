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
    ctx.state.newerForms = newerFormsOf(ctx.get('X-GZCTF-Compat'))
  }
  return ctx.state.newerForms as boolean
}

/** Whether an `X-GZCTF-Compat` value opts in to the newer forms (for requests answered without Koa). */
export function newerFormsOf(header: string): boolean {
  const match = VERSION.exec(header)
  return !!match && (Number(match[1]) > 1 || (Number(match[1]) === 1 && Number(match[2]) >= 1))
}
