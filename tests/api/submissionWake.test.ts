/**
 * Waking the submission checkers (docs/scoring.md#submission-queue): a submission is one INSERT;
 * the checkers of its own node are woken in-process, those of other nodes by a NOTIFY sent after
 * it, coalesced under load and naming the sending node (whose own checkers skip it). Here the
 * second node has no checkers, so what it takes is settled by the first node's, woken by those
 * NOTIFYs — every submission exactly once, none lost.
 */
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import type { TestServer } from '../support/server.js'
import { withTwoNodes } from '../support/twoNodes.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, queueDrained, sameSessionOn, settled, submit } from '../support/factories/play.js'
import type { RunningServer } from '../../server/src/server.js'

let server: TestServer
let other: RunningServer

withTwoNodes((nodes) => ({ server, other } = nodes))

async function playing() {
  const game = await createGame(server, { start: new Date(Date.now() - 3600_000), end: new Date(Date.now() + 3600_000), practiceMode: false })
  const challenge = await createChallenge(server, game, { isEnabled: true, flags: ['flag{right}'] })
  const player = await createPlayer(server, game)
  await createInstances(server, [player.participation], [challenge])
  return { game, challenge, player, there: sameSessionOn(other, player.client) }
}

describe('the submission queue wakes its checkers', () => {
  it('a submission on its own node is judged by that node', async () => {
    const { game, challenge, player } = await playing()
    const id = await submit(player.client, game.id, challenge.id, 'flag{nope}')
    expect(await settled(player.client, game.id, challenge.id, id)).toBe('WrongAnswer')
  })

  it('a burst taken by a node without checkers is settled by another, woken by fewer NOTIFYs than submissions', async () => {
    const { game, challenge, player, there } = await playing()
    const listener = new pg.Client({ connectionString: server.databaseUrl })
    await listener.connect()
    let notifications = 0
    const origins = new Set<string | undefined>()
    listener.on('notification', (n) => {
      if (n.channel !== 'flagwave_submissions') return
      notifications += 1
      origins.add(n.payload)
    })
    await listener.query('listen flagwave_submissions')
    try {
      const ids = await Promise.all(Array.from({ length: 60 }, (_, i) => submit(there, game.id, challenge.id, `flag{wrong-${i}}`)))
      expect(new Set(ids).size).toBe(60)
      const results = await Promise.all(ids.map((id) => settled(player.client, game.id, challenge.id, id)))
      expect(results.every((r) => r === 'WrongAnswer')).toBe(true)
      await queueDrained(server)
      expect(notifications).toBeGreaterThan(0)
      expect(notifications).toBeLessThan(60)
      // Each NOTIFY names the node that sent it, so that node's own checkers skip it.
      expect([...origins]).toEqual([other.services.submissions.origin])
      expect(other.services.submissions.isOwn(other.services.submissions.origin)).toBe(true)
      expect(server.services.submissions.isOwn(other.services.submissions.origin)).toBe(false)
      const rows = await server.services.orm.em.fork().getConnection().execute<{ n: string }[]>(
        `select count(*) as n from logs where message like '%flag{wrong-%' `,
      )
      // One audit entry per settlement: none settled twice.
      expect(Number(rows[0]!.n)).toBe(60)
    } finally {
      await listener.end()
    }
  })
})
