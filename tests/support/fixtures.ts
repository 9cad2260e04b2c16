/**
 * One complete world for the permission matrix, the conformance walk and the hostile-input tests:
 * every role of the contract with a signed-in client, a running game with challenges, flags,
 * instances, a container, a capture file, submissions, events, notices, a write-up, posts and
 * stored files — plus "spare" rows that destructive endpoints may delete without breaking the
 * rest. Built with the factories (tests/support/factories/*), a few rows through the API.
 */
import { randomBytes } from 'node:crypto'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import type { Team } from '../../server/src/entities/Team.js'
import type { Participation } from '../../server/src/entities/Participation.js'
import { Flag } from '../../server/src/entities/Flag.js'
import { Webhook } from '../../server/src/entities/Webhook.js'
import { User } from '../../server/src/entities/User.js'
import { inviteCode } from '../../server/src/domain/teams/inviteCode.js'
import type { TestServer } from './server.js'
import type { ApiClient } from './client.js'
import { createUser, type TestUser } from './factories/users.js'
import { createTeam } from './factories/teams.js'
import { createChallenge, createGame, createNotice, createParticipation, createStoredFile, setWriteup, storeCapture } from './factories/games.js'
import { createCheatInfo, createEvent, createInstanceContainer, createInstances, createSubmission, isolateIds } from './factories/play.js'

/** The callers of the permission matrix (brief: anonymous, Banned, User, User of another team, captain, Monitor, Admin). */
export const CALLERS = ['anonymous', 'banned', 'user', 'otherTeam', 'captain', 'monitor', 'admin'] as const
export type Caller = (typeof CALLERS)[number]

/** The account role of each caller (anonymous has none). */
export const CALLER_ROLE: Record<Caller, 'Banned' | 'User' | 'Monitor' | 'Admin' | null> = {
  anonymous: null,
  banned: 'Banned',
  user: 'User',
  otherTeam: 'User',
  captain: 'User',
  monitor: 'Monitor',
  admin: 'Admin',
}

const HOUR = 3600_000

/** A small valid PNG (2×2, red), as sharp writes it. */
export const PNG_2X2 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==', 'base64')
/** A minimal PDF. */
export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

export interface World {
  server: TestServer
  /** One client per caller; `anonymous` has no session, `banned` holds the session of a since-banned user. */
  clients: Record<Caller, ApiClient>
  users: {
    admin: { id: string; userName: string }
    monitor: TestUser
    /** Member (not captain) of team A, registered in the running game. */
    user: TestUser
    /** Captain of team A, registered in the running game. */
    captain: TestUser
    /** Captain of team B, which takes no part in the game. */
    otherTeam: TestUser
    banned: TestUser
    /** Captain of team C, the second accepted team of the game (scoreboard, cheat reports). */
    rival: TestUser
    /** Member of team P, whose participation in the game is still Pending. */
    pending: TestUser
    /** Spare accounts for the destructive admin endpoints. */
    spareForPassword: TestUser
    spareForDelete: TestUser
  }
  /** Running (not practice), started an hour ago, ends in a day. */
  game: Game
  /** Starts tomorrow. */
  upcomingGame: Game
  /** A game that destructive endpoints may delete. */
  spareGame: Game
  teams: { a: Team; b: Team; c: Team; pending: Team; spare: Team }
  participations: { a: Participation; c: Participation; pending: Participation }
  challenges: {
    /** Enabled StaticAttachment with flag `flag{static}`. */
    static: Challenge
    /** Enabled StaticContainer with traffic capture on (flag `flag{container}`). */
    container: Challenge
    /** Deletable. */
    spare: Challenge
  }
  flags: { static: Flag; spare: Flag }
  /** An Accepted submission of the captain (team A) on the static challenge. */
  submissionId: number
  notices: { normal: number; spare: number }
  posts: { main: string; spare: string }
  files: { main: string; spare: string }
  /** A running container of team A's instance of the container challenge (deletable). */
  containerId: string
  capture: { challengeId: number; participationId: number; fileName: string }
  inviteCodeA: string
  /** Webhooks of the game (docs/webhooks.md): one to keep, one that destructive endpoints may delete. */
  webhooks: { main: number; spare: number }
}

export async function buildWorld(server: TestServer): Promise<World> {
  await isolateIds(server)
  const em = () => server.services.orm.em.fork()
  const admin = await server.admin()
  const adminRow = await em().findOneOrFail(User, { userName: 'Admin' })

  const [monitor, user, captain, otherTeam, banned, rival, pending, spareForPassword, spareForDelete, spareCaptain] = await Promise.all([
    createUser(server, { role: 'Monitor' }),
    createUser(server),
    createUser(server),
    createUser(server),
    createUser(server, { role: 'Banned' }),
    createUser(server),
    createUser(server),
    createUser(server),
    createUser(server),
    createUser(server),
  ])

  const now = Date.now()
  const game = await createGame(server, { title: 'World game', practiceMode: false, start: new Date(now - HOUR), end: new Date(now + 24 * HOUR), wpddl: new Date(now + 27 * HOUR) })
  const upcomingGame = await createGame(server, { title: 'Upcoming game', start: new Date(now + 24 * HOUR), end: new Date(now + 48 * HOUR), wpddl: new Date(now + 48 * HOUR) })
  const spareGame = await createGame(server, { title: 'Spare game' })

  const a = await createTeam(server, captain.user, [user.user], { name: 'Team A', locked: true })
  const b = await createTeam(server, otherTeam.user, [], { name: 'Team B' })
  const c = await createTeam(server, rival.user, [], { name: 'Team C', locked: true })
  const pendingTeam = await createTeam(server, pending.user, [], { name: 'Team P' })
  const spare = await createTeam(server, spareCaptain.user, [], { name: 'Spare team' })

  const partA = await createParticipation(server, game, a, [captain.user, user.user], 'Accepted')
  const partC = await createParticipation(server, game, c, [rival.user], 'Accepted')
  const partPending = await createParticipation(server, game, pendingTeam, [pending.user], 'Pending')

  const staticChallenge = await createChallenge(server, game, { title: 'Static', flags: ['flag{static}'] })
  const containerChallenge = await createChallenge(server, game, {
    title: 'Container',
    type: 'StaticContainer',
    containerImage: 'flagwave/test:latest',
    containerExposePort: 8080,
    enableTrafficCapture: true,
    flags: ['flag{container}'],
  })
  const spareChallenge = await createChallenge(server, game, { title: 'Spare', flags: ['flag{spare}'] })
  await createInstances(server, [partA, partC], [staticChallenge, containerChallenge, spareChallenge])

  const flags = await em().find(Flag, { challenge: { $in: [staticChallenge.id, spareChallenge.id] } }, { orderBy: { id: 'asc' } })
  const staticFlag = flags.find((f) => f.challenge.id === staticChallenge.id)!
  const spareFlag = flags.find((f) => f.challenge.id === spareChallenge.id)!

  const submission = await createSubmission(server, game, staticChallenge, partA, captain.user, { answer: 'flag{static}', status: 'Accepted' })
  await createSubmission(server, game, staticChallenge, partC, rival.user, { answer: 'flag{nope}', status: 'WrongAnswer' })
  const cheat = await createSubmission(server, game, containerChallenge, partC, rival.user, { answer: 'flag{copied}', status: 'CheatDetected' })
  await createCheatInfo(server, game, cheat, partC, partA)
  await createEvent(server, game, { type: 'FlagSubmit', user: captain.user, teamId: a.id, content: 'flag{static}' })

  const normal = await createNotice(server, game, { content: 'Welcome to the world game' })
  const spareNotice = await createNotice(server, game, { content: 'Spare notice' })
  await createNotice(server, game, { type: 'FirstBlood', content: '恭喜 Team A 获得 「Static」 的一血' })

  const container = await createInstanceContainer(server, partA, containerChallenge)

  const captureName = '20240101-00.00.00-world.pcap'
  await storeCapture(server, containerChallenge.id, partA.id, captureName, randomBytes(96))

  await setWriteup(server, partA, PDF_BYTES, 'writeup.pdf')

  const mainFile = await createStoredFile(server, Buffer.from('world file'), 'world.txt')
  const spareFile = await createStoredFile(server, Buffer.from('spare file'), 'spare.txt')

  const post = async (title: string) => {
    const res = await admin.post('/api/edit/posts', { title, summary: `${title} summary`, content: `# ${title}\n\ncontent`, tags: ['world'] })
    if (res.status !== 200) throw new Error(`post creation failed: ${res.status} ${res.text}`)
    return res.body as string
  }
  const mainPost = await post('Main post')
  const sparePost = await post('Spare post')

  await server.services.scoreboard.rebuild(game.id)

  // Generic targets on a loopback address without allowPrivate: a test delivery is refused at once, never sent.
  const hookEm = em()
  const [mainHook, spareHook] = ['main', 'spare'].map((name) =>
    hookEm.create(Webhook, { game: game.id, name, kind: 'Generic', url: 'http://127.0.0.1:9/hook', secret: 'whsec_fixture', events: ['solve'] }),
  ) as [Webhook, Webhook]
  await hookEm.flush()
  return {
    server,
    clients: {
      anonymous: server.client(),
      banned: banned.client,
      user: user.client,
      otherTeam: otherTeam.client,
      captain: captain.client,
      monitor: monitor.client,
      admin,
    },
    users: { admin: { id: adminRow.id, userName: adminRow.userName }, monitor, user, captain, otherTeam, banned, rival, pending, spareForPassword, spareForDelete },
    game,
    upcomingGame,
    spareGame,
    teams: { a, b, c, pending: pendingTeam, spare },
    participations: { a: partA, c: partC, pending: partPending },
    challenges: { static: staticChallenge, container: containerChallenge, spare: spareChallenge },
    flags: { static: staticFlag, spare: spareFlag },
    submissionId: submission.id,
    notices: { normal: normal.id, spare: spareNotice.id },
    posts: { main: mainPost, spare: sparePost },
    files: { main: mainFile.hash, spare: spareFile.hash },
    containerId: container.id,
    capture: { challengeId: containerChallenge.id, participationId: partA.id, fileName: captureName },
    inviteCodeA: inviteCode(a),
    webhooks: { main: mainHook.id, spare: spareHook.id },
  }
}
