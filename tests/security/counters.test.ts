/**
 * Counts and flags that a rule depends on are read under the lock of the row that owns them
 * (docs/architecture.md#stored-files for files; the same rule elsewhere): concurrent requests
 * never both pass a check that only one of them may pass. Container limits under concurrency are
 * in tests/containers/docker.test.ts ("team container limit").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_CAPTAINED_TEAMS } from '@flagwave/shared/limits'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { Challenge } from '../../server/src/entities/Challenge.js'
import { Flag } from '../../server/src/entities/Flag.js'
import { Team } from '../../server/src/entities/Team.js'

let server: TestServer
let admin: ApiClient
beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const flagUrl = (gameId: number, challengeId: number, flagId: number) => `/api/edit/games/${gameId}/challenges/${challengeId}/flags/${flagId}`

describe('a challenge is never enabled without flags', () => {
  it('removing the last two flags at once disables it', async () => {
    const game = await createGame(server)
    for (let round = 0; round < 8; round++) {
      const challenge = await createChallenge(server, game, { isEnabled: true, flags: ['flag{a}', 'flag{b}'] })
      const flags = await em().find(Flag, { challenge: challenge.id })
      const results = await Promise.all(flags.map((f) => admin.delete(flagUrl(game.id, challenge.id, f.id))))
      expect(results.map((r) => [r.status, r.body])).toEqual([
        [200, 'Success'],
        [200, 'Success'],
      ])
      const after = await em().findOneOrFail(Challenge, { id: challenge.id })
      expect({ round, enabled: after.isEnabled, flags: await em().count(Flag, { challenge: challenge.id }) }).toEqual({ round, enabled: false, flags: 0 })
    }
  })

  it('enabling while the last flag is removed leaves it disabled or refuses', async () => {
    const game = await createGame(server)
    for (let round = 0; round < 8; round++) {
      const challenge = await createChallenge(server, game, { isEnabled: false, flags: ['flag{only}'] })
      const [flag] = await em().find(Flag, { challenge: challenge.id })
      const [enable, remove] = await Promise.all([
        admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { isEnabled: true }),
        admin.delete(flagUrl(game.id, challenge.id, flag!.id)),
      ])
      expect(remove.status).toBe(200)
      if (enable.status !== 200) expect(enable.body).toEqual({ title: '题目无 flag，不可启用', status: 400 })
      const after = await em().findOneOrFail(Challenge, { id: challenge.id })
      expect({ round, enabled: after.isEnabled }).toEqual({ round, enabled: false })
    }
  })
})

describe('captained teams', () => {
  it('two transfers to the same user at once cannot take them past the limit', async () => {
    const target = await createUser(server)
    for (let i = 0; i < MAX_CAPTAINED_TEAMS - 1; i++) await createTeam(server, target.user)
    const captains = await Promise.all([0, 1, 2].map(() => createUser(server)))
    const teams = await Promise.all(captains.map((c) => createTeam(server, c.user)))
    const results = await Promise.all(captains.map((c, i) => c.client.put(`/api/team/${teams[i]!.id}/transfer`, { newCaptainId: target.user.id })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body).toEqual({ title: '被移交者所管理的队伍过多', status: 400 })
    expect(await em().count(Team, { captain: target.user.id })).toBe(MAX_CAPTAINED_TEAMS)
  })
})
