/**
 * The origin the platform is reached at, from configuration only (PUBLIC_URL). Links that leave
 * the request — in mails above all — are built from this and never from Host or
 * X-Forwarded-Host, which a caller chooses.
 */
import type { Config } from '../config.js'

/**
 * `PUBLIC_URL`'s origin (`https://ctf.example.org`, no trailing slash), or
 * `http://localhost:<port>` when it is unset. `listeningPort` is the port actually bound, for
 * callers that know it (PORT=0 picks one at random).
 */
export function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, listeningPort?: number): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin
  return `http://localhost:${listeningPort ?? config.PORT}`
}

/** `PUBLIC_URL`'s origin when it is configured, else null (then nothing claims to be canonical). */
export function configuredPublicOrigin(config: Pick<Config, 'PUBLIC_URL'>): string | null {
  return config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : null
}
