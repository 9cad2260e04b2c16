/**
 * What the admin does before the simulated event, all through the API: open registration without
 * e-mail confirmation, create the game (not started yet) with challenges whose static flags the
 * simulation knows, accept each team once all its members have joined, and finally move the start
 * to now — the moment every player opens the board.
 */
import { randomBytes } from 'node:crypto'
import { ChallengeTag } from '@flagwave/shared/enums'
import { Browser, type Pool } from './http.js'
import type { Options } from './options.js'

interface SimChallenge {
  id: number
  title: string
  flag: string
  /** Opened by the admin during the event. */
  hidden: boolean
}

export interface EventPlan {
  gameId: number
  /** The game's edit body, sent again whole when the start moves. */
  game: Record<string, unknown>
  challenges: SimChallenge[]
}

function expectOk<T>(answer: { status: number; text: string; body: T }, what: string): T {
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`)
  return answer.body
}

/** The admin signs in from this machine (no X-Forwarded-For: the global rate limit exempts local callers). */
export async function signInAdmin(pool: Pool, options: Options): Promise<Browser> {
  const admin = new Browser(pool, null)
  expectOk(await admin.post('/api/account/login', { userName: options.adminUser, password: options.adminPassword }, 'admin: POST /api/account/login'), 'admin sign-in')
  return admin
}

/** Players register and are signed in at once: registration open, no captcha, no e-mail confirmation. */
export async function openRegistration(admin: Browser): Promise<void> {
  const config = expectOk(await admin.get<{ accountPolicy: Record<string, unknown> }>('/api/admin/config', 'admin: GET /api/admin/config'), 'reading the configuration')
  const wanted = { allowRegister: true, activeOnRegister: true, useCaptcha: false, emailConfirmationRequired: false }
  const policy = config.accountPolicy
  if (Object.entries(wanted).some(([k, v]) => policy[k] !== v)) {
    expectOk(await admin.put('/api/admin/config', { accountPolicy: wanted }, 'admin: PUT /api/admin/config'), 'opening registration')
    console.log('  account policy set: registration open, active at once, no captcha, no e-mail confirmation')
  }
}

const HOUR = 3600_000

export async function createEvent(admin: Browser, options: Options, runId: string): Promise<EventPlan> {
  const now = Date.now()
  const game: Record<string, unknown> = {
    title: `Simulated event ${runId}`,
    summary: `${options.players} players in teams of ${options.teamSize}`,
    content: 'Played by `npm run simulate`.',
    hidden: false,
    acceptWithoutReview: false,
    teamMemberCountLimit: options.teamSize,
    containerCountLimit: 3,
    practiceMode: false,
    // Not started while the teams register; the start moves to the real start later.
    start: new Date(now + 24 * HOUR).toISOString(),
    end: new Date(now + 48 * HOUR).toISOString(),
    wpddl: new Date(now + 49 * HOUR).toISOString(),
  }
  const created = expectOk(await admin.post<{ id: number }>('/api/edit/games', game, 'admin: POST /api/edit/games'), 'creating the game')
  const gameId = created.id
  const challenges: SimChallenge[] = []
  const total = options.challenges + options.hiddenChallenges
  for (let i = 0; i < total; i++) {
    const hidden = i >= options.challenges
    const tag = ChallengeTag[i % 6]!
    const title = `${tag} ${i + 1}${hidden ? ' (late)' : ''}`
    const c = expectOk(
      await admin.post<{ id: number }>(`/api/edit/games/${gameId}/challenges`, { title, tag, type: 'StaticAttachment' }, 'admin: POST …/challenges'),
      `creating challenge ${title}`,
    )
    const flag = `flag{sim_${runId}_${c.id}_${randomBytes(6).toString('hex')}}`
    expectOk(await admin.post(`/api/edit/games/${gameId}/challenges/${c.id}/flags`, [{ flag }], 'admin: POST …/flags'), `adding the flag of ${title}`)
    const edit = {
      content: `Challenge ${i + 1} of the simulated event. Read carefully, then submit the flag.`,
      originalScore: 100 * (1 + (i % 5)),
      minScoreRate: 0.25,
      difficulty: 5,
      isEnabled: !hidden,
    }
    expectOk(await admin.put(`/api/edit/games/${gameId}/challenges/${c.id}`, edit, 'admin: PUT …/challenges/{cid}'), `editing ${title}`)
    challenges.push({ id: c.id, title, flag, hidden })
  }
  return { gameId, game, challenges }
}

interface ParticipationInfo {
  id: number
  status: string
  registeredMembers: string[]
  team: { name: string }
}

/**
 * Accept every pending team whose members have all joined (an accepted team is locked: nobody can
 * join it afterwards). Returns how many were accepted now.
 */
export async function acceptCompleteTeams(admin: Browser, gameId: number, sizeOf: (teamName: string) => number | undefined): Promise<number> {
  const list = expectOk(await admin.get<ParticipationInfo[]>(`/api/game/${gameId}/participations`, 'admin: GET /api/game/{id}/participations'), 'listing participations')
  let accepted = 0
  for (const p of list) {
    if (p.status !== 'Pending' || p.registeredMembers.length < (sizeOf(p.team.name) ?? Infinity)) continue
    expectOk(await admin.put(`/api/admin/participation/${p.id}/Accepted`, undefined, 'admin: PUT /api/admin/participation/{id}/Accepted'), `accepting ${p.team.name}`)
    accepted++
  }
  return accepted
}

/** Move the start to `start` and the end to the end of the simulated event (plus a margin). */
export async function scheduleEvent(admin: Browser, plan: EventPlan, start: number, minutes: number): Promise<void> {
  const game = {
    ...plan.game,
    start: new Date(start).toISOString(),
    end: new Date(start + minutes * 60_000 + 10 * 60_000).toISOString(),
    wpddl: new Date(start + minutes * 60_000 + 20 * 60_000).toISOString(),
  }
  expectOk(await admin.put(`/api/edit/games/${plan.gameId}`, game, 'admin: PUT /api/edit/games/{id}'), 'scheduling the start')
  plan.game = game
}
