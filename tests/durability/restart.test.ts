/**
 * The durable submission queue and the scoreboard ownership across nodes (docs/scoring.md#engine-ownership): submissions
 * queued by a node without checkers, or left behind by a node that stopped mid-queue, are settled
 * by other nodes exactly once (status transitions counted by a trigger), blood notices are not
 * duplicated, and every node serves the scoreboard a full rebuild computes; when the node owning
 * a game's engine stops, another takes over and the version keeps increasing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import type { RunningServer } from '../../server/src/server.js'
import { loadGameData } from '../../server/src/domain/scoreboard/load.js'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { nativePool } from '../../server/src/db/pg.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, queueDrained, statusPath, submit, startNode, type Player } from '../support/factories/play.js'
import { ApiClient } from '../support/client.js'

let server: TestServer
let game: Game
let challenges: Challenge[]
let players: Player[]
const nodes: RunningServer[] = []

const pool = () => nativePool(server.services.orm)
const query = async <T = any>(sql: string, params: unknown[] = []) => (await (await pool()).query(sql, params)).rows as T[]

async function node(env: Record<string, string> = {}) {
  const n = await startNode(server.databaseUrl, env)
  nodes.push(n)
  return n
}
async function stop(n: RunningServer) {
  await n.close()
  nodes.splice(nodes.indexOf(n), 1)
}

/** The board a full rebuild computes now. */
async function rebuilt(): Promise<ScoreboardModel> {
  return ScoreboardState.build((await loadGameData(await pool(), game.id))!).snapshot(Date.now()).model
}
// `updateTimeUtc` is the same time under GZ::CTF 0.18's name.
const withoutTime = ({ updateTimeUTC: _t, updateTimeUtc: _u, ...rest }: ScoreboardModel) => rest

/** Wait until `url`'s scoreboard equals a full rebuild; returns its version. */
async function converged(url: string, timeoutMs = 10_000): Promise<number> {
  const client = new ApiClient(url)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await client.get<ScoreboardModel>(`/api/game/${game.id}/scoreboard`)
    const expected = withoutTime(await rebuilt())
    if (res.status === 200 && JSON.stringify(withoutTime(ScoreboardModel.parse(res.body))) === JSON.stringify(expected)) return Number(res.headers.get('x-scoreboard-version'))
    if (Date.now() > deadline) {
      expect(withoutTime(res.body)).toEqual(expected)
      throw new Error(`${url} did not converge`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function expectSettledExactlyOnce() {
  expect(await query(`select count(*)::int as n from submissions where status = 'FlagSubmitted'`)).toEqual([{ n: 0 }])
  const rows = await query<{ id: number; n: number; old: string }>(
    `select s.id, count(t.submission_id)::int as n, min(t.old_status) as old from submissions s left join status_transitions t on t.submission_id = s.id group by s.id having count(t.submission_id) <> 1 or min(t.old_status) <> 'FlagSubmitted'`,
  )
  expect(rows).toEqual([])
  // One audit-log entry per settled submission, written with it.
  const [{ n: submissions }] = await query<{ n: number }>('select count(*)::int as n from submissions')
  expect(await query(`select count(*)::int as n from logs where message ~ '\\(#[0-9]+\\)$'`)).toEqual([{ n: submissions }])
  // Blood notices: one per rank and challenge, and as many as there are solvers (up to three).
  const notices = await query<{ content: string; n: number }>(`select content, count(*)::int as n from notices where game_id = $1 group by content having count(*) > 1`, [game.id])
  expect(notices).toEqual([])
  for (const c of challenges) {
    const [{ solvers }] = await query<{ solvers: number }>(`select count(distinct participation_id)::int as solvers from submissions where challenge_id = $1 and status = 'Accepted'`, [c.id])
    const types = (await query<{ type: string }>(`select type from notices where game_id = $1 and content like $2 order by id`, [game.id, `%「${c.title}」%`])).map((r) => r.type)
    expect(types).toEqual(['FirstBlood', 'SecondBlood', 'ThirdBlood'].slice(0, Math.min(3, solvers)))
    const [{ accepted_count }] = await query<{ accepted_count: number }>('select accepted_count from challenges where id = $1', [c.id])
    expect(accepted_count).toBe(solvers)
  }
}

beforeAll(async () => {
  // This node queues and serves, but never checks.
  server = await startTestServer({ env: { CHECKER_CONCURRENCY: '0' } })
  await isolateIds(server)
  await query(`create table status_transitions (submission_id int not null, old_status text, new_status text, at timestamptz not null default clock_timestamp())`)
  await query(`create function log_status_transition() returns trigger language plpgsql as $$
    begin insert into status_transitions (submission_id, old_status, new_status) values (new.id, old.status, new.status); return new; end $$`)
  await query(`create trigger submissions_status_transition after update of status on submissions for each row
    when (old.status is distinct from new.status) execute function log_status_transition()`)
  game = await createGame(server)
  challenges = []
  for (let i = 0; i < 4; i++) challenges.push(await createChallenge(server, game, { title: `Q${i}`, flags: [`flag{q${i}}`] }))
  players = []
  for (let i = 0; i < 5; i++) players.push(await createPlayer(server, game))
  await createInstances(server, players.map((p) => p.participation), challenges)
})
afterAll(async () => {
  for (const n of [...nodes].reverse()) await n.close().catch(() => undefined)
  await server?.close()
})

describe('durable submission queue', () => {
  it('keeps submissions queued on a node without checkers; other nodes settle each exactly once', async () => {
    const ids: number[] = []
    for (const [i, p] of players.entries()) {
      for (const [j, c] of challenges.entries()) {
        if ((i + j) % 3 === 2) continue
        ids.push(await submit(p.client, game.id, c.id, `flag{q${j}}`))
        ids.push(await submit(p.client, game.id, c.id, 'flag{wrong}'))
      }
    }
    await new Promise((r) => setTimeout(r, 300))
    expect((await players[0]!.client.get(statusPath(game.id, challenges[0]!.id, ids[0]!))).body).toBe('FlagSubmitted')
    expect(await query(`select count(*)::int as n from submissions where status = 'FlagSubmitted'`)).toEqual([{ n: ids.length }])
    const version = Number((await server.client().get(`/api/game/${game.id}/scoreboard`)).headers.get('x-scoreboard-version'))

    // Two checking nodes at once.
    const b = await node({ CHECKER_CONCURRENCY: '3' })
    const c = await node({ CHECKER_CONCURRENCY: '3' })
    await queueDrained(server)
    await expectSettledExactlyOnce()
    expect(await query(`select count(*)::int as n from events where game_id = $1 and type = 'FlagSubmit'`, [game.id])).toEqual([{ n: ids.length }])
    // Every node serves the board of a full rebuild, whoever owns the engine.
    const versions = [await converged(server.url), await converged(b.url), await converged(c.url)]
    expect(Math.min(...versions)).toBeGreaterThan(version)
    const owners = [server, b, c].filter((n) => n.services.scoreboard.owns(game.id))
    expect(owners).toHaveLength(1)
  })

  it('a node stopped mid-queue leaves nothing half-done; the next node settles the rest', async () => {
    const b = await node({ CHECKER_CONCURRENCY: '2' })
    const before = (await query<{ n: number }>('select count(*)::int as n from submissions'))[0]!.n
    const total = 5000
    await query(
      `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time)
       select $1, ($2::int[])[1 + i % $4], ($3::int[])[1 + (i / $4) % $5], ($6::uuid[])[1 + (i / $4) % $5],
              case when i % 7 = 0 then 'flag{q' || (i % $4) || '}' else 'flag{nope}' end, 'FlagSubmitted', now() + i * interval '1 microsecond'
         from generate_series(1, $7) as i`,
      [game.id, challenges.map((c) => c.id), players.map((p) => p.participation.id), challenges.length, players.length, players.map((p) => p.user.id), total],
    )
    await query(`select pg_notify('flagwave_submissions', '')`)
    await new Promise((r) => setTimeout(r, 150))
    await stop(b)
    const [{ n: left }] = await query<{ n: number }>(`select count(*)::int as n from submissions where status = 'FlagSubmitted'`)
    expect(left).toBeGreaterThan(0)
    expect(left).toBeLessThan(total)

    const c = await node({ CHECKER_CONCURRENCY: '2' })
    await queueDrained(server, 60_000)
    expect((await query<{ n: number }>('select count(*)::int as n from status_transitions'))[0]!.n).toBe(before + total)
    await expectSettledExactlyOnce()
    await converged(server.url)
    await converged(c.url)
  }, 120_000)

  it('another node takes a game over when its owner stops, and the version keeps increasing', async () => {
    const b = await node({ CHECKER_CONCURRENCY: '1' })
    const all = [server, ...nodes]
    const owner = all.find((n) => n.services.scoreboard.owns(game.id))
    expect(owner).toBeDefined()
    const version = await converged(server.url)
    if (owner === server) {
      // The test server holds the game: release it by stopping its engine the way a dying node would.
      await server.services.scoreboard.stop()
    } else await stop(owner as RunningServer)
    const survivors = [b, ...nodes.filter((n) => n !== b)].filter((n) => n !== owner)
    // A new solve through a surviving node: some surviving node adopts the game and pushes it.
    const extra = await createChallenge(server, game, { title: 'After', flags: ['flag{after}'] })
    await createInstances(server, [players[0]!.participation], [extra])
    await server.services.scoreboard.rebuild(game.id).catch(() => undefined)
    const client = new ApiClient(survivors[0]!.url)
    await client.login(players[0]!.user.userName, players[0]!.password)
    await submit(client, game.id, extra.id, 'flag{after}')
    await queueDrained(server)
    const deadline = Date.now() + 10_000
    while (!survivors.some((n) => n.services.scoreboard.owns(game.id))) {
      if (Date.now() > deadline) throw new Error('no node took the game over')
      await new Promise((r) => setTimeout(r, 100))
    }
    const after = await converged(survivors[0]!.url)
    expect(after).toBeGreaterThan(version)
    expect(await converged(b.url)).toBe(after)
  })
})
