/**
 * A team's challenge instances (docs/compatibility.md#group-admin, #group-game-challenges-and-flags, #dynamic-flags).
 *
 * Rows are created when a participation is accepted (one per enabled challenge) and "loaded" on
 * the team's first view of the challenge: a `DynamicContainer` instance then gets its flag
 * generated from the template, a `DynamicAttachment` instance is handed one unoccupied flag (and
 * its attachment) for good. Loading runs in one transaction with the instance row locked, and the
 * flag is claimed with `FOR UPDATE SKIP LOCKED`, so concurrent views never hand one flag to two
 * teams nor load an instance twice.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { LockMode } from '@mikro-orm/core'
import { generateTeamFlag } from '@flagwave/shared/flags'
import { GameInstance } from '../../entities/GameInstance.js'
import { Challenge } from '../../entities/Challenge.js'
import { Flag } from '../../entities/Flag.js'
import { Attachment } from '../../entities/Attachment.js'
import { LocalFile } from '../../entities/LocalFile.js'
import type { Container } from '../../entities/Container.js'
import type { Game } from '../../entities/Game.js'
import type { Participation } from '../../entities/Participation.js'
import { notFound } from '../../lib/errors.js'
import { sha256Hex, teamHashSalt } from '../games/keys.js'
import { assertDivisionMay } from './gate.js'
import { assertUnlocked } from '../challenges/prerequisites.js'

const INSTANCE_NOT_FOUND = '题目未找到或动态附件分配失败'

/** A loaded instance with what its presenter needs. */
export interface InstanceView {
  instance: GameInstance
  challenge: Challenge
  container: Container | null
  /** The team's attachment: its flag's for `DynamicAttachment`, the challenge's otherwise. */
  attachment: Attachment | null
  /** The stored file behind a `Local` attachment (null when gone or unknown). */
  file: LocalFile | null
}

/**
 * Create the missing instance rows of `participationId` for every enabled challenge of the game
 * (acceptance, docs/compatibility.md#group-admin). Returns how many rows were created.
 */
export async function ensureInstances(em: EntityManager, participationId: number, gameId: number): Promise<number> {
  const result = await em.execute<{ affectedRows: number }>(
    `insert into instances (participation_id, challenge_id, is_loaded)
     select ?, c.id, false from challenges c where c.game_id = ? and c.is_enabled
     on conflict (participation_id, challenge_id) do nothing`,
    [participationId, gameId],
    'run',
  )
  return result.affectedRows ?? 0
}

/** The flag of a `DynamicContainer` instance (docs/compatibility.md#dynamic-flags), from the challenge's template. */
function dynamicContainerFlag(game: Pick<Game, 'privateKey'>, participation: Pick<Participation, 'token'>, challenge: Pick<Challenge, 'id' | 'flagTemplate'>): string {
  return generateTeamFlag(challenge.flagTemplate, {
    teamToken: participation.token,
    teamHashSalt: teamHashSalt(game),
    challengeId: challenge.id,
    sha256Hex,
  })
}

/**
 * The team's instance of `challengeId`, loaded on first access (docs/compatibility.md#group-game-challenges-and-flags). 404
 * `题目未找到或动态附件分配失败` when the team has no instance, the challenge is disabled at the
 * first load (a loaded instance stays reachable), or no free dynamic attachment is left.
 */
export async function loadInstance(em: EntityManager, game: Game, participation: Participation, challengeId: number): Promise<InstanceView> {
  await assertMayOpen(em, game, participation, challengeId)
  // Every view after the first: a loaded instance never changes back, so no lock is needed to read it.
  const loaded = await em.findOne(GameInstance, { participation: participation.id, challenge: challengeId, isLoaded: true }, { populate: VIEW })
  if (loaded) return viewOf(em, loaded)
  return instanceView(em, await loadOnFirstView(em, game, participation, challengeId))
}

/** The division may view the challenge (else 404) and its prerequisites are solved (else 403). */
async function assertMayOpen(em: EntityManager, game: Game, participation: Participation, challengeId: number): Promise<void> {
  await assertDivisionMay(em, game.id, participation.division, challengeId, 'ViewChallenge')
  // Locked by its prerequisites: not opened, no container (docs/challenge-rules.md#prerequisites).
  await assertUnlocked(em, game.id, participation.id, challengeId)
}

/** Load the team's instance under its row lock (the first view); its id. */
async function loadOnFirstView(em: EntityManager, game: Game, participation: Participation, challengeId: number): Promise<number> {
  return em.transactional(async (tem) => {
    const instance = await tem.findOne(GameInstance, { participation: participation.id, challenge: challengeId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    if (!instance) throw notFound(INSTANCE_NOT_FOUND)
    if (instance.isLoaded) return instance.id
    const challenge = await tem.findOneOrFail(Challenge, { id: challengeId })
    if (!challenge.isEnabled) throw notFound(INSTANCE_NOT_FOUND)
    if (challenge.type === 'DynamicContainer') {
      instance.dynamicFlag = dynamicContainerFlag(game, participation, challenge)
    } else if (challenge.type === 'DynamicAttachment') {
      const claimed = await tem.execute<{ id: number }[]>(
        `update flags set is_occupied = true
          where id = (select id from flags where challenge_id = ? and not is_occupied order by random() limit 1 for update skip locked)
          returning id`,
        [challenge.id],
      )
      if (claimed.length === 0) throw notFound(INSTANCE_NOT_FOUND)
      instance.flag = tem.getReference(Flag, claimed[0].id)
    }
    instance.isLoaded = true
    return instance.id
  })
}

/** What a team's challenge detail shows, as plain rows (docs/performance.md#the-challenge-detail). */
export interface TeamChallengeRecord {
  challenge: Pick<
    Challenge,
    'id' | 'title' | 'content' | 'tag' | 'hints' | 'type' | 'originalScore' | 'minScoreRate' | 'difficulty' | 'acceptedCount' | 'submissionLimit' | 'deadlineUtc' | 'fileName' | 'costedHints'
  >
  container: Pick<Container, 'id' | 'status' | 'isProxy' | 'ip' | 'port' | 'publicIp' | 'publicPort' | 'startedAt' | 'expectStopAt'> | null
  attachment: Pick<Attachment, 'type' | 'remoteUrl' | 'fileName'> | null
  file: Pick<LocalFile, 'hash' | 'name' | 'fileSize'> | null
  /** The team's submissions to the challenge, every status (docs/challenge-rules.md#attempt-limits). */
  attempts: number
  /** The team's costed-hint unlocks: hint id → points paid. */
  unlocks: Map<number, number>
}

/**
 * The team's challenge for its detail, with the same rules and first-view load as `loadInstance`,
 * read as plain rows in one statement: no entity is hydrated on a path every team polls.
 */
export async function teamChallenge(em: EntityManager, game: Game, participation: Participation, challengeId: number): Promise<TeamChallengeRecord> {
  await assertMayOpen(em, game, participation, challengeId)
  const loaded = await teamChallengeRow(em, participation.id, challengeId)
  if (loaded) return loaded
  await loadOnFirstView(em, game, participation, challengeId)
  const view = await teamChallengeRow(em, participation.id, challengeId)
  if (!view) throw notFound(INSTANCE_NOT_FOUND)
  return view
}

interface TeamChallengeRow {
  id: number
  title: string
  content: string
  tag: Challenge['tag']
  hints: string[] | null
  type: Challenge['type']
  original_score: number
  min_score_rate: number
  difficulty: number
  accepted_count: number
  submission_limit: number | null
  deadline_ms: number | null
  file_name: string
  costed_hints: Challenge['costedHints']
  container_id: string | null
  container_status: Container['status'] | null
  is_proxy: boolean | null
  ip: string | null
  port: number | null
  public_ip: string | null
  public_port: number | null
  started_ms: number | null
  stop_ms: number | null
  attachment_type: Attachment['type'] | null
  remote_url: string | null
  attachment_file_name: string | null
  stored_hash: string | null
  stored_name: string | null
  stored_size: string | number | null
  attempts: string | number
  unlocks: [number, number][]
}

// The team's attachment: its flag's for DynamicAttachment, the challenge's otherwise; the stored file behind a Local one.
const TEAM_CHALLENGE_SQL = `
  select c.id, c.title, c.content, c.tag, c.hints, c.type, c.original_score, c.min_score_rate, c.difficulty, c.accepted_count,
         c.submission_limit, floor(extract(epoch from c.deadline_utc) * 1000)::float8 as deadline_ms, c.file_name, c.costed_hints,
         ct.id as container_id, ct.status as container_status, ct.is_proxy, ct.ip, ct.port, ct.public_ip, ct.public_port,
         floor(extract(epoch from ct.started_at) * 1000)::float8 as started_ms, floor(extract(epoch from ct.expect_stop_at) * 1000)::float8 as stop_ms,
         a.type as attachment_type, a.remote_url, a.file_name as attachment_file_name,
         lf.hash as stored_hash, lf.name as stored_name, lf.file_size as stored_size,
         (select count(*) from submissions s where s.challenge_id = i.challenge_id and s.participation_id = i.participation_id) as attempts,
         (select coalesce(json_agg(json_build_array(h.hint_id, h.cost)), '[]'::json) from hint_unlocks h
           where h.participation_id = i.participation_id and h.challenge_id = i.challenge_id) as unlocks
    from instances i
    join challenges c on c.id = i.challenge_id
    left join containers ct on ct.id = i.container_id
    left join flags f on f.id = i.flag_id and c.type = 'DynamicAttachment'
    left join attachments a on a.id = case when c.type = 'DynamicAttachment' then f.attachment_id else c.attachment_id end
    left join files lf on a.type = 'Local' and lf.hash = a.file_hash
   where i.participation_id = ? and i.challenge_id = ? and i.is_loaded`

async function teamChallengeRow(em: EntityManager, participationId: number, challengeId: number): Promise<TeamChallengeRecord | null> {
  const [r] = await em.execute<TeamChallengeRow[]>(TEAM_CHALLENGE_SQL, [participationId, challengeId])
  if (!r) return null
  const date = (ms: number | null) => (ms === null ? null : new Date(ms))
  return {
    challenge: {
      id: r.id,
      title: r.title,
      content: r.content,
      tag: r.tag,
      hints: r.hints ?? [],
      type: r.type,
      originalScore: r.original_score,
      minScoreRate: r.min_score_rate,
      difficulty: r.difficulty,
      acceptedCount: r.accepted_count,
      submissionLimit: r.submission_limit ?? 0,
      deadlineUtc: date(r.deadline_ms),
      fileName: r.file_name,
      costedHints: r.costed_hints ?? [],
    },
    container:
      r.container_id === null
        ? null
        : {
            id: r.container_id,
            status: r.container_status!,
            isProxy: r.is_proxy!,
            ip: r.ip!,
            port: r.port!,
            publicIp: r.public_ip,
            publicPort: r.public_port,
            startedAt: date(r.started_ms)!,
            expectStopAt: date(r.stop_ms)!,
          },
    attachment: r.attachment_type === null ? null : { type: r.attachment_type, remoteUrl: r.remote_url, fileName: r.attachment_file_name },
    file: r.stored_hash === null ? null : { hash: r.stored_hash, name: r.stored_name!, fileSize: Number(r.stored_size) },
    attempts: Number(r.attempts),
    unlocks: new Map(r.unlocks.map(([hint, cost]) => [hint, cost])),
  }
}

/** Read an instance with its challenge, container, attachment and stored file. */
async function instanceView(em: EntityManager, instanceId: number): Promise<InstanceView> {
  return viewOf(em, await em.findOneOrFail(GameInstance, { id: instanceId }, { populate: VIEW, refresh: true }))
}

const VIEW = ['challenge', 'challenge.attachment', 'container', 'flag', 'flag.attachment'] as const

async function viewOf(em: EntityManager, instance: GameInstance): Promise<InstanceView> {
  const challenge = instance.challenge as Challenge
  const attachment = (challenge.type === 'DynamicAttachment' ? (instance.flag as Flag | null)?.attachment : challenge.attachment) as Attachment | null | undefined
  const file = attachment?.type === 'Local' && attachment.fileHash ? await em.findOne(LocalFile, { hash: attachment.fileHash }) : null
  return { instance, challenge, container: (instance.container as Container | null) ?? null, attachment: attachment ?? null, file }
}
