/**
 * Writing deliveries into the outbox (docs/webhooks.md#outbox). Each function runs inside the
 * transaction of the event it announces — the solve's settlement, the notice's insert — so the
 * delivery exists exactly when the event committed: a crash before the commit loses both, a crash
 * after it loses neither. Game start and end have no writing transaction: every node inserts them
 * when due, and a unique key per webhook lets exactly one insert win.
 */
import type pg from 'pg'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { WebhookEvent } from '@flagwave/shared/enums'
import type { WebhookPayload } from './targets.js'

/** A team's first counted solve, as settled: `blood` is 0–2 for a blood announced with its notice, else -1. */
export interface SolveHook {
  gameId: number
  blood: number
  team: string
  challengeId: number
  challengeTitle: string
  time: Date
}

/**
 * A blood goes out once per webhook: as `blood` to webhooks subscribed to bloods, else as `solve`
 * to those subscribed to solves; other solves go to webhooks subscribed to solves.
 */
const SOLVES_SQL = `
  insert into webhook_deliveries (delivery_id, webhook_id, game_id, event, payload, status, next_attempt_at, created_at)
  select gen_random_uuid(), w.id, v.g,
         case when v.blood >= 0 and 'blood' = any(w.events) then 'blood' else 'solve' end,
         jsonb_build_object('game', jsonb_build_object('id', gm.id, 'title', gm.title), 'time', v.at, 'team', v.team,
                            'challenge', jsonb_build_object('id', v.c, 'title', v.ct))
           || case when v.blood >= 0 and 'blood' = any(w.events) then jsonb_build_object('rank', v.blood) else '{}'::jsonb end,
         'Pending', $7, $7
    from unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[]) as v(g, blood, team, c, ct, at)
    join webhooks w on w.game_id = v.g and w.enabled
    join games gm on gm.id = v.g
   where (v.blood >= 0 and 'blood' = any(w.events)) or 'solve' = any(w.events)`

/** In the settling transaction (domain/submissions/settle.ts). */
export async function enqueueSolves(db: pg.PoolClient, solves: SolveHook[], now: Date): Promise<void> {
  if (solves.length === 0) return
  await db.query({
    name: 'flagwave-webhook-solves',
    text: SOLVES_SQL,
    values: [
    solves.map((s) => s.gameId),
    solves.map((s) => s.blood),
    solves.map((s) => s.team),
    solves.map((s) => s.challengeId),
    solves.map((s) => s.challengeTitle),
    solves.map((s) => s.time.toISOString()),
    now,
    ],
  })
}

/** One event to every enabled webhook of the game subscribed to it, in `em`'s transaction. */
export async function enqueueEvent(em: EntityManager, gameId: number, event: WebhookEvent, payload: WebhookPayload): Promise<void> {
  await em.execute(
    `insert into webhook_deliveries (delivery_id, webhook_id, game_id, event, payload, status, next_attempt_at, created_at)
     select gen_random_uuid(), w.id, w.game_id, ?, ?::jsonb, 'Pending', now(), now()
       from webhooks w where w.game_id = ? and w.enabled and ? = any(w.events)`,
    [event, JSON.stringify(payload), gameId, event],
  )
}

/**
 * Game starts and ends that are due and not yet in the outbox, for webhooks that subscribed
 * before they happened. The key holds the moment, so a game moved to start again later is
 * announced again; any number of nodes may run this at once (one insert per key wins).
 */
export async function enqueueMilestones(pool: pg.Pool): Promise<number> {
  const result = await pool.query(
    `insert into webhook_deliveries (delivery_id, webhook_id, game_id, event, payload, dedupe_key, status, next_attempt_at, created_at)
     select gen_random_uuid(), w.id, g.id, m.event,
            jsonb_build_object('game', jsonb_build_object('id', g.id, 'title', g.title), 'time', m.at),
            m.event || ':' || floor(extract(epoch from m.at) * 1000)::bigint, 'Pending', now(), now()
       from webhooks w
       join games g on g.id = w.game_id
       cross join lateral (values ('gameStart', g.start), ('gameEnd', g."end")) as m(event, at)
      where w.enabled and m.event = any(w.events) and m.at <= now() and m.at >= w.updated_at
        and not exists (select 1 from webhook_deliveries d
                         where d.webhook_id = w.id and d.dedupe_key = m.event || ':' || floor(extract(epoch from m.at) * 1000)::bigint)
     on conflict (webhook_id, dedupe_key) do nothing`,
  )
  return result.rowCount ?? 0
}
