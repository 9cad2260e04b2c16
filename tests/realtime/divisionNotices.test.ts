/**
 * Notices about a challenge a division may not view (docs/scoring.md#divisions-and-notices): the
 * NewChallenge and NewHint notices name the challenge, so neither the notice list (REST, with its
 * hot read) nor the push may reach a division that may not view it — nor may a blood notice,
 * which names the challenge too — while the divisions that may view it, teams without a division
 * and staff get them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { rooms } from '@flagwave/shared/events'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createChallenge, createDivision, createGame } from '../support/factories/games.js'
import { createPlayer, isolateIds, settled, submit, type Player } from '../support/factories/play.js'
import { closeAllSockets, connect, joined } from '../support/sockets.js'

let server: TestServer
let admin: ApiClient
let game: Game
let hidden: Challenge
let secret: Challenge
let open: Player
let guest: Player
let loner: Player

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  admin = await server.admin()
  game = await createGame(server)
  // Disabled until the test enables them, which writes their NewChallenge notices.
  hidden = await createChallenge(server, game, { title: 'GuestsNeverSee', isEnabled: false })
  secret = await createChallenge(server, game, { title: 'NobodySees', isEnabled: false })
  const openDivision = await createDivision(server, game, { name: 'Open', challengeConfigs: [{ challengeId: secret.id, permissions: 0 }] })
  const guests = await createDivision(server, game, {
    name: 'Guests',
    challengeConfigs: [
      { challengeId: hidden.id, permissions: 0 },
      { challengeId: secret.id, permissions: 0 },
    ],
  })
  open = await createPlayer(server, game, { organization: openDivision })
  guest = await createPlayer(server, game, { organization: guests })
  loner = await createPlayer(server, game)
})
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

/** A player's socket watching the game, recording the notices it receives. */
async function watch(player: Player): Promise<{ socket: Socket; notices: GameNotice[] }> {
  const socket = await connect(server, '/hub/user', { game: game.id, client: player.client })
  await joined(server, '/hub/user', socket, rooms.game(game.id))
  await joined(server, '/hub/user', socket, rooms.team(game.id, player.participation.id))
  const notices: GameNotice[] = []
  socket.on('ReceivedGameNotice', (n: GameNotice) => notices.push(n))
  return { socket, notices }
}

const titles = async (client: ApiClient) => {
  const res = await client.get<GameNotice[]>(`/api/game/${game.id}/notices`)
  expect(res.status).toBe(200)
  return res.body.map((n) => n.content)
}

describe('notices about challenges a division may not view', () => {
  it('reach only the teams that may view the challenge, live and in the list', async () => {
    const [openSocket, guestSocket, lonerSocket] = await Promise.all([watch(open), watch(guest), watch(loner)])
    for (const challenge of [hidden, secret]) {
      expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { isEnabled: true })).status).toBe(200)
    }
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${hidden.id}`, { hints: ['look closer'] })).status).toBe(200)
    expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Welcome' })).status).toBe(200)

    // The Normal notice is pushed after the others: once a socket has it, it has all it will get.
    const until = async (list: GameNotice[]) => {
      for (let i = 0; i < 500 && !list.some((n) => n.content === 'Welcome'); i++) await new Promise((r) => setTimeout(r, 10))
      return list.map((n) => n.content)
    }
    const seenByOpen = await until(openSocket.notices)
    const seenByGuest = await until(guestSocket.notices)
    const seenByLoner = await until(lonerSocket.notices)
    expect(seenByOpen.some((c) => c.includes('GuestsNeverSee'))).toBe(true)
    expect(seenByOpen.join()).not.toContain('NobodySees')
    expect(seenByGuest).toEqual(['Welcome'])
    // A team without a division may view everything.
    expect(seenByLoner.filter((c) => c.includes('GuestsNeverSee') || c.includes('NobodySees'))).toHaveLength(3)

    // The list, twice each (the second answer may come from the hot read, docs/performance.md#hot-reads).
    for (let round = 0; round < 2; round++) {
      expect((await titles(guest.client)).join()).not.toMatch(/GuestsNeverSee|NobodySees/)
      const forOpen = await titles(open.client)
      expect(forOpen.filter((c) => c.includes('GuestsNeverSee'))).toHaveLength(2)
      expect(forOpen.join()).not.toContain('NobodySees')
      // Visitors see what at least one division may view; staff and teams without a division see all.
      const anonymous = await titles(server.client())
      expect(anonymous.filter((c) => c.includes('GuestsNeverSee'))).toHaveLength(2)
      expect(anonymous.join()).not.toContain('NobodySees')
      expect((await titles(admin)).filter((c) => c.includes('NobodySees'))).toHaveLength(1)
      expect((await titles(loner.client)).filter((c) => c.includes('NobodySees'))).toHaveLength(1)
    }
  })

  it('a blood on a challenge a division may not view does not reach that division', async () => {
    const [openSocket, guestSocket] = await Promise.all([watch(open), watch(guest)])
    const id = await submit(open.client, game.id, hidden.id, 'flag{test}')
    expect(await settled(open.client, game.id, hidden.id, id)).toBe('Accepted')
    for (let i = 0; i < 500 && !openSocket.notices.some((n) => n.type === 'FirstBlood'); i++) await new Promise((r) => setTimeout(r, 10))
    expect(openSocket.notices.find((n) => n.type === 'FirstBlood')?.content).toContain('GuestsNeverSee')
    // A notice posted now arrives after anything pushed before it: the guest heard nothing else.
    expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'After the blood' })).status).toBe(200)
    for (let i = 0; i < 500 && !guestSocket.notices.some((n) => n.content === 'After the blood'); i++) await new Promise((r) => setTimeout(r, 10))
    expect(guestSocket.notices.map((n) => n.content)).toEqual(['After the blood'])
    expect((await titles(guest.client)).join()).not.toContain('GuestsNeverSee')
    expect((await titles(open.client)).filter((c) => c.includes('GuestsNeverSee'))).toHaveLength(3)
  })

  it('follows a move to another division at once', async () => {
    expect((await titles(guest.client)).filter((c) => c.includes('GuestsNeverSee'))).toHaveLength(0)
    const openDivision = (await admin.get<{ id: number; name: string }[]>(`/api/edit/games/${game.id}/divisions`)).body.find((d) => d.name === 'Open')!
    expect((await admin.put(`/api/admin/participation/${guest.participation.id}`, { divisionId: openDivision.id })).status).toBe(200)
    // Its NewChallenge and NewHint notices, and the blood.
    expect((await titles(guest.client)).filter((c) => c.includes('GuestsNeverSee'))).toHaveLength(3)
  })
})
