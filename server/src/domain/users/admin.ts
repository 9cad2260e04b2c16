/**
 * User administration (docs/compatibility.md#group-admin). Identity's rules come
 * from domain/accounts/identity.ts. Role changes and bans take effect at once: a ban ends the
 * user's sessions in the same transaction, and their sockets are dropped after the commit (they
 * reconnect with what they may now see).
 */
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { roleText, type Role } from '@flagwave/shared/enums'
import type { AdminUserInfoModel, UserCreateModel } from '@flagwave/shared/schemas/users'
import { User } from '../../entities/User.js'
import { Team } from '../../entities/Team.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { creationError, findByEmail, findByUserName, identityErrors, normalizeKey, uniqueViolationTitle, userValidationError } from '../accounts/identity.js'
import { generatePassword, hashPassword } from '../accounts/passwords.js'
import { endAllSessions, newSecurityStamp } from '../accounts/sessions.js'
import { fileTransaction } from '../files/files.js'
import { newInviteToken } from '../teams/inviteCode.js'
import { findTeam } from '../teams/teams.js'
import { announceTeamChange } from '../teams/events.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const SEARCH_LIMIT = 30

/** Identity's FindByIdAsync: an id that is not a GUID finds nobody. */
export const findUserById = (em: EntityManager, id: string): Promise<User | null> =>
  GUID.test(id) ? em.findOne(User, { id: id.toLowerCase() }) : Promise.resolve(null)

const USER_NOT_FOUND = '用户未找到'

/** `GET /api/admin/users`: by id (string order), `total` = number of users. */
export async function listUsers(em: EntityManager, count: number, skip: number): Promise<{ users: User[]; total: number }> {
  const total = await em.count(User, {})
  const users = count > 0 ? await em.find(User, {}, { orderBy: { id: 'asc' }, limit: count, offset: Math.max(0, skip) }) : []
  return { users, total }
}

/** `POST /api/admin/users/search`: a literal, case-sensitive substring of name, student number, e-mail, id or real name. */
export async function searchUsers(em: EntityManager, hint: string): Promise<User[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from users
      where strpos(user_name, ?) > 0 or strpos(std_number, ?) > 0 or strpos(email, ?) > 0 or strpos(id::text, ?) > 0 or strpos(real_name, ?) > 0
      order by id limit ${SEARCH_LIMIT}`,
    [hint, hint, hint, hint, hint],
  )
  if (rows.length === 0) return []
  return em.find(User, { id: { $in: rows.map((r) => r.id) } }, { orderBy: { id: 'asc' } })
}

export interface CreatedUsers {
  users: User[]
  teams: Team[]
}

/**
 * `POST /api/admin/users`, in one transaction (docs/compatibility.md#group-admin): each entry becomes a confirmed
 * `User`; when Identity's first error is a duplicate user name (or e-mail), that account is
 * updated instead and its password reset; any other error rolls everything back. Then one new
 * team per distinct `teamName`, captained by its first listed user.
 */
export async function createUsers(scope: Scope, actor: Actor, models: UserCreateModel[]): Promise<CreatedUsers> {
  const created = await scope.em.transactional(async (tx) => {
    const entries: [User, string | null][] = []
    for (const model of models) {
      const user = await createOrUpdateUser(tx, model)
      entries.push([user, model.teamName])
    }
    const teams = new Map<string, Team>()
    for (const [user, teamName] of entries) {
      if (teamName === null) continue
      const team = teams.get(teamName)
      if (team) {
        if (!team.members.contains(user)) team.members.add(user)
        continue
      }
      const newTeam = tx.create(Team, { name: teamName, bio: null, locked: false, inviteToken: newInviteToken(), captain: user, avatarHash: null })
      newTeam.members.add(user)
      teams.set(teamName, newTeam)
    }
    await tx.flush()
    return { users: entries.map(([u]) => u), teams: [...teams.values()] }
  })
  for (const team of created.teams) announceTeamChange(scope.events, { teamId: team.id, team, joined: team.members.getItems().map((m) => m.id) })
  await scope.services.audit.success(actor, `成功批量添加 ${created.users.length} 个用户`)
  return created
}

async function createOrUpdateUser(tx: EntityManager, model: UserCreateModel): Promise<User> {
  const error = await creationError(tx, { userName: model.userName, email: model.email }, model.password)
  if (error === null) {
    const passwordHash = await hashPassword(model.password)
    const user = tx.create(User, {
      id: randomUUID(),
      userName: model.userName,
      normalizedUserName: normalizeKey(model.userName),
      email: model.email,
      normalizedEmail: normalizeKey(model.email),
      emailConfirmed: true,
      passwordHash,
      securityStamp: newSecurityStamp(),
      role: 'User',
      realName: model.realName ?? '',
      stdNumber: model.stdNumber ?? '',
      phone: model.phone,
    })
    await flushOrExplain(tx, model)
    return user
  }
  let existing: User | null
  // A name is also "taken" when it is another account's e-mail address: then the entry can only update its own e-mail's account.
  if (error === identityErrors.duplicateUserName(model.userName)) existing = (await findByUserName(tx, model.userName)) ?? (await findByEmail(tx, model.email))
  else if (error === identityErrors.duplicateEmail(model.email)) existing = await findByEmail(tx, model.email)
  else throw badRequest(error)
  if (!existing) throw badRequest(error)
  // Identity's ResetPasswordAsync validates the updated account again (its new name or e-mail may now collide).
  const again = await userValidationError(tx, { id: existing.id, userName: model.userName, email: model.email })
  if (again) throw badRequest(again)
  existing.userName = model.userName
  existing.normalizedUserName = normalizeKey(model.userName)
  existing.email = model.email
  existing.normalizedEmail = normalizeKey(model.email)
  existing.stdNumber = model.stdNumber ?? existing.stdNumber
  existing.realName = model.realName ?? existing.realName
  existing.phone = model.phone ?? existing.phone
  existing.passwordHash = await hashPassword(model.password)
  existing.securityStamp = newSecurityStamp()
  await flushOrExplain(tx, model)
  return existing
}

async function flushOrExplain(tx: EntityManager, model: UserCreateModel): Promise<void> {
  try {
    await tx.flush()
  } catch (err) {
    const title = uniqueViolationTitle(err, model)
    if (title === null) throw err
    throw badRequest(title)
  }
}

interface AdminUserUpdate {
  user: User
  /** False when Identity refused the change: nothing was saved, yet the answer is 200. */
  saved: boolean
  previousRole: Role
}

/**
 * `PUT /api/admin/users/{userid}`: each non-null member overwrites. As in the reference the
 * Identity result is ignored — a rejected change (duplicate or invalid name or e-mail) saves
 * nothing and still answers 200. A ban ends every session of the user.
 */
export async function updateUserAsAdmin(scope: Scope, actor: Actor, id: string, model: AdminUserInfoModel): Promise<User> {
  const { user, saved, previousRole } = await scope.em.transactional(async (tx): Promise<AdminUserUpdate> => {
    const user = await findUserById(tx, id)
    if (!user) throw notFound(USER_NOT_FOUND)
    const previousRole = user.role
    const userName = model.userName ?? user.userName
    const email = model.email ?? user.email
    if (await userValidationError(tx, { id: user.id, userName, email })) return { user, saved: false, previousRole }
    user.userName = userName
    user.normalizedUserName = normalizeKey(userName)
    user.email = email
    user.normalizedEmail = normalizeKey(email)
    user.bio = model.bio ?? user.bio
    user.phone = model.phone ?? user.phone
    user.realName = model.realName ?? user.realName
    user.stdNumber = model.stdNumber ?? user.stdNumber
    user.emailConfirmed = model.emailConfirmed ?? user.emailConfirmed
    user.role = model.role ?? user.role
    try {
      await tx.flush()
    } catch (err) {
      if (uniqueViolationTitle(err, { userName, email }) === null) throw err
      return { user, saved: false, previousRole }
    }
    return { user, saved: true, previousRole }
  })
  if (!saved) return user
  if (user.role !== previousRole) {
    scope.events.disconnectUser(user.id)
    if (user.role === 'Banned') await scope.services.audit.success(actor, `封禁用户 ${user.userName}`, 'Warning')
    else await scope.services.audit.success(actor, `用户 ${user.userName} 的角色：${roleText[previousRole]} → ${roleText[user.role as Role]}`)
  }
  await scope.services.audit.success(actor, `管理员更新用户 ${user.userName} 的信息`)
  return user
}

/** `DELETE /api/admin/users/{userid}/password`: a new random 16-character password; the security stamp moves. */
export async function resetUserPassword(scope: Scope, actor: Actor, id: string): Promise<string> {
  const { user, password } = await scope.em.transactional(async (tx) => {
    const user = await findUserById(tx, id)
    if (!user) throw notFound(USER_NOT_FOUND)
    const password = generatePassword(16)
    user.passwordHash = await hashPassword(password)
    user.securityStamp = newSecurityStamp()
    await tx.flush()
    await endAllSessions(tx, user.id)
    return { user, password }
  })
  scope.events.disconnectUser(user.id)
  await scope.services.audit.success(actor, `重置用户 ${user.userName} 的密码`, 'Warning')
  return password
}

/**
 * `DELETE /api/admin/users/{userid}`, checks in the contract's order. Sessions, memberships and
 * registrations go with the account (database cascades); posts and submissions keep a null author.
 */
export async function deleteUserAsAdmin(scope: Scope, actor: Actor, id: string): Promise<User> {
  const { em, services } = scope
  if (actor.user.id.toLowerCase() === id.toLowerCase()) throw badRequest('不可以删除自己')
  const result = await fileTransaction(em, services.storage, async (tx, files) => {
    const user = await findUserById(tx, id)
    if (!user) throw notFound(USER_NOT_FOUND)
    // The avatar is read under the row lock, so a concurrent avatar change cannot release it a second time.
    const [locked] = await tx.execute<{ avatar_hash: string | null }[]>('select avatar_hash from users where id = ? for update', [user.id])
    if ((await tx.count(Team, { captain: user.id })) > 0) throw badRequest('不可以删除队长')
    const rows = await tx.execute<{ team_id: number }[]>('select team_id from team_members where user_id = ?', [user.id])
    await files.release(locked?.avatar_hash)
    await tx.nativeDelete(User, { id: user.id })
    await invalidateAfterCommit(tx, [tags.user(user.id)])
    return { user, teamIds: rows.map((r) => r.team_id) }
  })
  const { user, teamIds } = result
  scope.events.disconnectUser(user.id)
  for (const teamId of teamIds) {
    const team = await findTeam(em.fork(), teamId)
    if (team) announceTeamChange(scope.events, { teamId, team })
  }
  await services.audit.success(actor, `删除用户 ${user.userName}`, 'Warning')
  return user
}
