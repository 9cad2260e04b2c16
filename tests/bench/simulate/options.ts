/** Command line of `npm run simulate` (docs/operations.md#an-event-simulated). */
import { parseArgs } from 'node:util'

export interface Options {
  url: URL
  players: number
  teamSize: number
  minutes: number
  adminUser: string
  adminPassword: string
  /** Visible challenges at the start, and hidden ones the admin enables during the run. */
  challenges: number
  hiddenChallenges: number
  /** Notices the admin posts during the run. */
  notices: number
  /** Multiplies every human pause (1 = reading a challenge for 20–90 s). */
  thinkScale: number
  /** Share of submissions that carry the right flag. */
  rightShare: number
  /** Share of players who sign in again when they arrive (the others kept their session). */
  loginShare: number
  /** Players arrive (sign in, open the board) spread over this many seconds after the start. */
  arrivalSeconds: number
  /** Refresh board, notices and scoreboard every 10 s even with the socket up (every player on the fallback). */
  pollBoard: boolean
  /** Registrations and team joins running at once before the event (argon2 hashing is slow by design). */
  signupConcurrency: number
  /** Big screens watching the scoreboard. */
  screens: number
  serverPid: number | null
  json: string | null
}

const HELP = `npm run simulate -- [options]   (against a running Flagwave server; docs/operations.md#an-event-simulated)

  --url URL                  server (default http://127.0.0.1:8080, npm start's PORT)
  --players N                players (default 1000)
  --team-size N              players per team (default 4)
  --minutes M                length of the event (default 10)
  --admin-password P         password of the Admin account (default: ADMIN_PASSWORD)
  --admin-user NAME          (default Admin)
  --challenges N             challenges open at the start (default 16)
  --hidden-challenges N      challenges the admin opens during the event (default 4)
  --notices N                notices the admin posts during the event (default 5)
  --think-scale X            multiply every human pause (default 1; 0.2 = five times busier)
  --right-share X            share of submissions with the right flag (default 0.15)
  --login-share X            share of players who sign in again at the start (default 0.3)
  --arrival-seconds S        players arrive over this many seconds after the start (default 20)
  --poll-board               every player also refreshes board, notices and scoreboard every 10 s
  --signup-concurrency N     registrations at once before the event (default 16)
  --screens N                big screens watching the scoreboard (default 1)
  --server-pid PID           server process to sample (default: the one listening on the port)
  --json FILE                also write the figures as JSON
`

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:8080' },
      players: { type: 'string', default: '1000' },
      'team-size': { type: 'string', default: '4' },
      minutes: { type: 'string', default: '10' },
      'admin-password': { type: 'string' },
      'admin-user': { type: 'string', default: 'Admin' },
      challenges: { type: 'string', default: '16' },
      'hidden-challenges': { type: 'string', default: '4' },
      notices: { type: 'string', default: '5' },
      'think-scale': { type: 'string', default: '1' },
      'right-share': { type: 'string', default: '0.15' },
      'login-share': { type: 'string', default: '0.3' },
      'arrival-seconds': { type: 'string', default: '20' },
      'poll-board': { type: 'boolean', default: false },
      'signup-concurrency': { type: 'string', default: '16' },
      screens: { type: 'string', default: '1' },
      'server-pid': { type: 'string' },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    process.stdout.write(HELP)
    process.exit(0)
  }
  const num = (name: keyof typeof values, min: number): number => {
    const n = Number(values[name])
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}`)
    return n
  }
  const adminPassword = values['admin-password'] ?? process.env.ADMIN_PASSWORD
  if (!adminPassword) throw new Error('the Admin password is needed: --admin-password or ADMIN_PASSWORD')
  return {
    url: new URL(values.url!),
    players: Math.floor(num('players', 1)),
    teamSize: Math.floor(num('team-size', 1)),
    minutes: num('minutes', 0.1),
    adminUser: values['admin-user']!,
    adminPassword,
    challenges: Math.floor(num('challenges', 1)),
    hiddenChallenges: Math.floor(num('hidden-challenges', 0)),
    notices: Math.floor(num('notices', 0)),
    thinkScale: num('think-scale', 0),
    rightShare: Math.min(1, num('right-share', 0)),
    loginShare: Math.min(1, num('login-share', 0)),
    arrivalSeconds: num('arrival-seconds', 0),
    pollBoard: values['poll-board']!,
    signupConcurrency: Math.floor(num('signup-concurrency', 1)),
    screens: Math.floor(num('screens', 0)),
    serverPid: values['server-pid'] ? Math.floor(num('server-pid', 1)) : null,
    json: values.json ?? null,
  }
}
