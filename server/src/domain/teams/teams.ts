/**
 * Team commands (docs/compatibility.md#group-team). Every command runs in one transaction that locks the team row,
 * checks in the contract's order and throws its exact titles; once the transaction has committed
 * it announces the change (events.ts) and writes the caller's audit entry.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { LockMode, wrap, type EntityData } from '@mikro-orm/core'
import { invalidateAfterCommit, readCacheOf, tags } from '../../cache/invalidation.js'
import { AVATAR_WIDTH, MAX_CAPTAINED_TEAMS } from '@flagwave/shared/limits'
import type { TeamUpdateModel } from '@flagwave/shared/schemas/teams'
import { TEAM_NAME_EMPTY_MESSAGE } from '@flagwave/shared/schemas/teams'
import { Team } from '../../entities/Team.js'
import { User } from '../../entities/User.js'
import { AppError, badRequest, notFound } from '../../lib/errors.js'
import { processImage } from '../../lib/images.js'
import type { UploadedFile } from '../../lib/uploads.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { requestScoreboardRebuild } from '../scoreboard/hooks.js'
import { checkImageUpload } from '../accounts/avatar.js'
import { fileTransaction } from '../files/files.js'
import { assetUrl } from '../../lib/assetUrls.js'
import { assertCaptain, isMember, isTeamLocked, playsInLockedGame } from './policy.js'
import { newInviteToken, parseInviteCode } from './inviteCode.js'
import { announceTeamChange, type PlayedIn } from './events.js'

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** How a missing team is reported: most team endpoints answer HTTP 400 (docs/compatibility.md#group-team). */
type Missing = 'http400' | 'http404'

const missingTeam = (how: Missing): AppError => (how === 'http400' ? badRequest('队伍未找到') : notFound('队伍未找到'))

/** Load a team with its members, locking its row for the rest of the transaction. */
export async function lockTeam(em: EntityManager, id: number): Promise<Team | null> {
  const team = await em.findOne(Team, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
  if (!team) return null
  await team.members.init()
  return team
}

/** Load a team with its members (reads). */
export async function findTeam(em: EntityManager, id: number): Promise<Team | null> {
  return em.findOne(Team, { id }, { populate: ['members'] })
}

/** Every team the user is a member of, by id, with members (`GET /api/team`). */
export async function teamsOfUser(em: EntityManager, userId: string): Promise<Team[]> {
  const cached: CachedTeam[] | undefined = await readCacheOf(em).read<CachedTeam[]>(`teams:${userId}`, async () => {
    const rows = await em.execute<{ team_id: number }[]>('select team_id from team_members where user_id = ?', [userId])
    const teams = rows.length ? await em.find(Team, { id: { $in: rows.map((r) => r.team_id) } }, { populate: ['members'], orderBy: { id: 'asc' } }) : []
    const value = teams.map((t) => {
      const { members: _members, ...row } = wrap(t).toPOJO()
      return { team: { ...row, captain: t.captain.id }, members: t.members.getItems().map((u) => wrap(u).toPOJO()) }
    })
    const memberTags = value.flatMap((v) => v.members.map((u) => tags.user(u.id)))
    return { value, tags: [tags.user(userId), ...teams.map((t) => tags.team(t.id)), ...memberTags] }
  })
  // Plain copies from the read cache (docs/architecture.md#read-cache), merged into this request's unit of work.
  return cached!.map(({ team, members }) => {
    const merged = em.merge(Team, team)
    merged.members.hydrate(members.map((u) => em.merge(User, u)))
    return merged
  })
}

/** A team as the read cache keeps it: the row and its members' rows. */
interface CachedTeam {
  team: EntityData<Team>
  members: EntityData<User>[]
}

/**
 * `POST /api/team`. "One create at a time per user" is enforced with a transaction-scoped
 * advisory lock on the user id (the `Concurrency` policy of the reference), then the reference's
 * rule: refused when the caller is in more than one team and captains one of them.
 */
export async function createTeam(scope: Scope, actor: Actor, model: TeamUpdateModel): Promise<Team> {
  const userId = actor.user.id
  const team = await scope.em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`team-create:${userId}`])
    const rows = await tx.execute<{ captain_id: string }[]>(
      'select t.captain_id from team_members m join teams t on t.id = m.team_id where m.user_id = ?',
      [userId],
    )
    if (rows.length > 1 && rows.some((r) => r.captain_id === userId)) throw badRequest('不允许创建多个队伍')
    if (!model.name) throw badRequest(TEAM_NAME_EMPTY_MESSAGE)
    const me = await tx.findOneOrFail(User, { id: userId })
    const team = tx.create(Team, { name: model.name, bio: model.bio, locked: false, inviteToken: newInviteToken(), captain: me, avatarHash: null })
    team.members.add(me)
    await tx.flush()
    return team
  })
  announceTeamChange(scope.events, { teamId: team.id, team, joined: [userId] })
  await scope.services.audit.success(actor, `创建队伍 ${team.name}`)
  return team
}

/** `PUT /api/team/{id}`: a null or empty name keeps the current one; bio is always replaced. */
export async function updateTeam(scope: Scope, actor: Actor, id: number, model: TeamUpdateModel): Promise<Team> {
  const team = await scope.em.transactional(async (tx) => {
    const team = await lockTeam(tx, id)
    if (!team) throw missingTeam('http400')
    assertCaptain(team, actor.user.id)
    if (model.name) team.name = model.name
    team.bio = model.bio
    await tx.flush()
    return team
  })
  announceTeamChange(scope.events, { teamId: team.id, team })
  await scope.services.audit.success(actor, `更新队伍信息 ${team.name}`)
  return team
}

/** `PUT /api/team/{id}/transfer`. The new captain need not be a member (as in the reference). */
export async function transferTeam(scope: Scope, actor: Actor, id: number, newCaptainId: string): Promise<Team> {
  const { team, newCaptain } = await scope.em.transactional(async (tx) => {
    const team = await lockTeam(tx, id)
    if (!team) throw missingTeam('http400')
    assertCaptain(team, actor.user.id)
    if (await isTeamLocked(tx, team)) throw badRequest('队伍已锁定')
    const newCaptain = GUID.test(newCaptainId) ? await tx.findOne(User, { id: newCaptainId.toLowerCase() }) : null
    if (!newCaptain) throw badRequest('移交的用户不存在')
    // Counted under the new captain's lock (the one team creation takes): two transfers to the same user at once cannot both pass.
    await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`team-create:${newCaptain.id}`])
    const captained = await tx.count(Team, { captain: newCaptain.id, id: { $ne: team.id } })
    if (captained >= MAX_CAPTAINED_TEAMS) throw badRequest('被移交者所管理的队伍过多')
    team.captain = newCaptain
    await tx.flush()
    return { team, newCaptain }
  })
  announceTeamChange(scope.events, { teamId: team.id, team })
  await scope.services.audit.success(actor, `转移队伍 ${team.name} 给 ${newCaptain.userName}`)
  return team
}

/** `GET /api/team/{id}/invite` (read) and `PUT /api/team/{id}/invite` (new token, old codes stop working). */
export async function teamForInvite(scope: Scope, actor: Actor, id: number, regenerate: boolean): Promise<Team> {
  return scope.em.transactional(async (tx) => {
    const team = regenerate ? await lockTeam(tx, id) : await findTeam(tx, id)
    if (!team) throw missingTeam('http400')
    assertCaptain(team, actor.user.id)
    if (regenerate) {
      team.inviteToken = newInviteToken()
      await tx.flush()
    }
    return team
  })
}

/**
 * `POST /api/team/{id}/kick/{userid}`. Removes the member and **their** registrations for this
 * team's games — the reference deletes the captain's instead — and, in a locked team, is refused
 * only for a member who plays in the game that holds the lock (docs/compatibility.md#deliberate-departures).
 */
export async function kickMember(scope: Scope, actor: Actor, id: number, kickedId: string): Promise<Team> {
  const { team, kicked, playedIn } = await scope.em.transactional(async (tx) => {
    const team = await lockTeam(tx, id)
    if (!team) throw missingTeam('http400')
    assertCaptain(team, actor.user.id)
    const kicked = team.members.getItems().find((m) => m.id === kickedId.toLowerCase())
    if ((await isTeamLocked(tx, team)) && (!kicked || (await playsInLockedGame(tx, team, kicked.id)))) throw badRequest('队伍已锁定')
    if (!kicked) throw badRequest('用户不在队伍中')
    return { team, kicked, playedIn: await removeMember(tx, team, kicked) }
  })
  announceTeamChange(scope.events, { teamId: team.id, team, left: [kicked.id], playedIn })
  await scope.services.audit.success(actor, `从队伍 ${team.name} 踢除 ${kicked.userName}`)
  return team
}

/** `POST /api/team/accept`: join a team by invite code. */
export async function acceptInvite(scope: Scope, actor: Actor, code: string): Promise<Team> {
  const userId = actor.user.id
  const { teamName, teamId, token } = parseInviteCode(code)
  const team = await scope.em.transactional(async (tx) => {
    const team = await lockTeam(tx, teamId)
    if (!team) throw badRequest(`${teamName} 队伍未找到`)
    if (team.inviteToken !== token) throw badRequest(`${teamName} 邀请无效`)
    if (await isTeamLocked(tx, team)) throw badRequest(`${teamName} 队伍已锁定`)
    if (isMember(team, userId)) throw badRequest('你已经加入此队伍，无需重复加入')
    team.members.add(await tx.findOneOrFail(User, { id: userId }))
    await tx.flush()
    return team
  })
  announceTeamChange(scope.events, { teamId: team.id, team, joined: [userId] })
  await scope.services.audit.success(actor, `加入队伍 ${team.name}`)
  return team
}

/**
 * `POST /api/team/{id}/leave`. A captain may leave (the team keeps its captain id). The leaver's
 * registrations for this team's games go too (docs/compatibility.md#deliberate-departures).
 */
export async function leaveTeam(scope: Scope, actor: Actor, id: number): Promise<Team> {
  const userId = actor.user.id
  const { team, playedIn } = await scope.em.transactional(async (tx) => {
    const team = await lockTeam(tx, id)
    if (!team) throw missingTeam('http404')
    const me = team.members.getItems().find((m) => m.id === userId)
    if (!me) throw badRequest('你不在此队伍中，无法离队')
    if (await isTeamLocked(tx, team)) throw badRequest('队伍已锁定')
    return { team, playedIn: await removeMember(tx, team, me) }
  })
  announceTeamChange(scope.events, { teamId: team.id, team, left: [userId], playedIn })
  await scope.services.audit.success(actor, `离开队伍 ${team.name}`)
  return team
}

/**
 * Inside the team's transaction: `user` stops being a member and stops playing for the team.
 * Their registrations through its participations go, so they can no longer submit, load
 * instances or upload write-ups for it; returns those participations, whose team rooms their
 * sockets leave after the commit (docs/realtime.md#room-moves).
 */
async function removeMember(tx: EntityManager, team: Team, user: User): Promise<PlayedIn[]> {
  team.members.remove(user)
  await tx.flush()
  const rows = await tx.execute<{ game_id: number; participation_id: number }[]>(
    'delete from registrations where user_id = ? and participation_id in (select id from participations where team_id = ?) returning game_id, participation_id',
    [user.id, team.id],
  )
  if (rows.length) await invalidateAfterCommit(tx, rows.map((r) => tags.registration(r.game_id, user.id)))
  return rows.map((r) => ({ gameId: r.game_id, participationId: r.participation_id }))
}

/**
 * `PUT /api/team/{id}/avatar`: the image is checked by content, resized to 300 px and stored as
 * WebP (GIFs kept); the previous avatar's reference is released and its blob deleted after commit.
 */
export async function setTeamAvatar(scope: Scope, actor: Actor, id: number, file: UploadedFile): Promise<{ team: Team; url: string }> {
  const result = await fileTransaction(scope.em, scope.services.storage, async (tx, files) => {
    const team = await lockTeam(tx, id)
    if (!team) throw missingTeam('http404')
    assertCaptain(team, actor.user.id)
    checkImageUpload(file)
    const image = await processImage(file.path, { resizeWidth: AVATAR_WIDTH })
    if (!image) throw badRequest('队伍头像更新失败')
    const name = `avatar.${image.extension}`
    // The previous avatar is read under the team's row lock (docs/architecture.md#stored-files).
    const blob = await files.stage(image.data)
    await files.lock([blob.hash, team.avatarHash])
    const saved = await files.store(blob, name)
    await files.release(team.avatarHash)
    team.avatarHash = saved.hash
    return { team, url: assetUrl(saved.hash, name) }
  })
  const { team } = result
  announceTeamChange(scope.events, { teamId: team.id, team })
  await scope.services.audit.success(actor, `更新队伍 ${team.name} 的头像：[${team.avatarHash?.slice(0, 8)}]`)
  return result
}

/** `DELETE /api/team/{id}`. Participations (and their registrations) go with the team. */
export async function deleteTeam(scope: Scope, actor: Actor, id: number): Promise<Team> {
  const team = await removeTeam(scope, id, async (tx, team) => {
    assertCaptain(team, actor.user.id)
    if (await isTeamLocked(tx, team)) throw badRequest('队伍已锁定')
  })
  await scope.services.audit.success(actor, `删除队伍 ${team.name}`)
  return team
}

/**
 * Delete a team after `check` passed (the captain path above; admins skip it). Releases the
 * avatar; after the commit the former members leave the team's room and the scoreboards of the
 * games it took part in are rebuilt.
 */
export async function removeTeam(scope: Scope, id: number, check: (tx: EntityManager, team: Team) => Promise<void>): Promise<Team> {
  const result = await fileTransaction(scope.em, scope.services.storage, async (tx, files) => {
    const team = await lockTeam(tx, id)
    if (!team) throw missingTeam('http404')
    await check(tx, team)
    const members = team.members.getItems().map((m) => m.id)
    // Participations go with the team (cascade), and with them their write-ups' references.
    const parts = await tx.execute<{ game_id: number; writeup_hash: string | null }[]>('select game_id, writeup_hash from participations where team_id = ? order by id for update', [team.id])
    const gameIds = [...new Set(parts.map((p) => p.game_id))]
    const hashes = [team.avatarHash, ...parts.map((p) => p.writeup_hash)]
    await files.lock(hashes)
    for (const hash of hashes) await files.release(hash)
    tx.remove(team)
    await tx.flush()
    return { team, members, gameIds }
  })
  announceTeamChange(scope.events, { teamId: id, team: null, left: result.members })
  for (const gameId of result.gameIds) await requestScoreboardRebuild(scope.services, gameId)
  return result.team
}
