/**
 * The session purge (docs/operations.md#purging): at boot and then every SESSION_PURGE_INTERVAL_MS
 * (an hour by default) it deletes the login sessions that can never be used again — expired, or
 * minted under a security stamp the user no longer has. Without it every sign-in leaves a row for
 * good. E-mail tokens are stateless (domain/accounts/tokens.ts): there is nothing of them to purge.
 * Single sign-ons started and never finished leave `sso_logins` rows; expired ones go too.
 */
import type { Services } from '../services.js'
import type { Worker } from './worker.js'
import { nativePool } from '../db/pg.js'
import { purgeDeadSessions } from '../domain/accounts/sessions.js'
import { purgeExpiredSsoLogins } from '../domain/sso/flow.js'
import { startPeriodic } from './periodic.js'

export async function startPurge(services: Services): Promise<Worker> {
  const pool = await nativePool(services.orm)
  return startPeriodic('session-purge', services.config.SESSION_PURGE_INTERVAL_MS, services.log, async () => {
    const purged = await purgeDeadSessions(pool)
    if (purged > 0) services.log.info({ purged }, 'session-purge: dead sessions deleted')
    const abandoned = await purgeExpiredSsoLogins(pool)
    if (abandoned > 0) services.log.info({ abandoned }, 'session-purge: expired single sign-ons deleted')
  })
}
