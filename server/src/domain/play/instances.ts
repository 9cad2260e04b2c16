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
  await assertDivisionMay(em, game.id, participation.division, challengeId, 'ViewChallenge')
  // Locked by its prerequisites: not opened, no container (docs/challenge-rules.md#prerequisites).
  await assertUnlocked(em, game.id, participation.id, challengeId)
  // Every view after the first: a loaded instance never changes back, so no lock is needed to read it.
  const loaded = await em.findOne(GameInstance, { participation: participation.id, challenge: challengeId, isLoaded: true }, { populate: VIEW })
  if (loaded) return viewOf(em, loaded)
  const instanceId = await em.transactional(async (tem) => {
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
  return instanceView(em, instanceId)
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
