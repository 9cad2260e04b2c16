/**
 * Group `admin`, users, teams and files (CONTRACT §3.2.3–3.2.13, §3.2.20). Every endpoint is
 * `RequireAdmin`. Role changes, bans, password resets and deletions take effect at once: the
 * user's sockets are dropped after the commit (they reconnect with what they may now see).
 */
import type { Context } from 'koa'
import { z } from 'zod'
import { arrayResponseOf, pagingQuery } from '@flagwave/shared/schemas/common'
import { AdminUserInfoModel, SearchHintQuery, UserCreateModelList, UserInfoModel } from '@flagwave/shared/schemas/users'
import { ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import { AdminTeamModel, TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { LocalFile } from '@flagwave/shared/schemas/admin'
import { guidParam, intParam, route } from '../http/route.js'
import { notFound } from '../lib/errors.js'
import { presentProfile, presentUserInfo } from '../presenters/users.js'
import { presentTeamInfo } from '../presenters/teams.js'
import { presentLocalFile } from '../presenters/files.js'
import { createUsers, deleteUserAsAdmin, findUserById, listUsers, resetUserPassword, searchUsers, updateUserAsAdmin } from '../domain/users/admin.js'
import { deleteTeamAsAdmin, listTeams, searchTeams, updateTeamAsAdmin } from '../domain/teams/admin.js'
import { findTeam } from '../domain/teams/teams.js'
import { announceTeamChange } from '../domain/teams/events.js'
import { listFiles } from '../domain/assets/assets.js'
import { invalidatePosts } from '../domain/posts/posts.js'
import { requestScoreboardRebuild } from '../domain/scoreboard/hooks.js'

const userGuid = z.object({ userid: guidParam })
const teamId = z.object({ id: intParam })

async function audit(ctx: Context, message: string, level: 'Information' | 'Warning' = 'Information'): Promise<void> {
  await ctx.services.audit.write({ message, level, userName: ctx.state.user?.userName, ip: ctx.clientIp, status: 'Success' })
}

export const adminUserRoutes = [
  route({
    method: 'GET',
    path: '/api/admin/users',
    role: 'Admin',
    query: pagingQuery(100),
    response: arrayResponseOf(UserInfoModel),
    summary: 'Users by id, paged',
    handler: async (ctx, { query }) => {
      const { users, total } = await listUsers(ctx.em, query.count, query.skip)
      return { data: users.map(presentUserInfo), length: users.length, total }
    },
  }),
  route({
    method: 'POST',
    path: '/api/admin/users',
    role: 'Admin',
    body: UserCreateModelList,
    response: 'empty',
    summary: 'Create (or update) users in one transaction, with their teams',
    handler: async (ctx, { body }) => {
      const { users, teams } = await createUsers(ctx.em, body)
      for (const team of teams) announceTeamChange(ctx.outbox, { teamId: team.id, team: presentTeamInfo(team), joined: team.members.getItems().map((m) => m.id) })
      await audit(ctx, `成功批量添加 ${users.length} 个用户`)
      return undefined
    },
  }),
  route({
    method: 'POST',
    path: '/api/admin/users/search',
    role: 'Admin',
    query: SearchHintQuery,
    response: arrayResponseOf(UserInfoModel),
    summary: 'At most 30 users matching a hint',
    handler: async (ctx, { query }) => {
      const users = await searchUsers(ctx.em, query.hint)
      return { data: users.map(presentUserInfo), length: users.length, total: users.length }
    },
  }),
  route({
    method: 'GET',
    path: '/api/admin/teams',
    role: 'Admin',
    query: pagingQuery(100),
    response: arrayResponseOf(TeamInfoModel),
    summary: 'Teams by id with members, paged',
    handler: async (ctx, { query }) => {
      const { teams, total } = await listTeams(ctx.em, query.count, query.skip)
      return { data: teams.map(presentTeamInfo), length: teams.length, total }
    },
  }),
  route({
    method: 'POST',
    path: '/api/admin/teams/search',
    role: 'Admin',
    query: SearchHintQuery,
    response: arrayResponseOf(TeamInfoModel),
    summary: 'At most 30 teams whose name holds a hint',
    handler: async (ctx, { query }) => {
      const teams = await searchTeams(ctx.em, query.hint)
      return { data: teams.map(presentTeamInfo), length: teams.length, total: teams.length }
    },
  }),
  route({
    method: 'PUT',
    path: '/api/admin/teams/:id',
    role: 'Admin',
    params: teamId,
    body: AdminTeamModel,
    response: 'empty',
    summary: 'Edit a team (name, bio, lock)',
    handler: async (ctx, { params, body }) => {
      const team = await updateTeamAsAdmin(ctx.em, params.id, body)
      announceTeamChange(ctx.outbox, { teamId: team.id, team: presentTeamInfo(team) })
      await audit(ctx, `管理员更新队伍 ${team.name}（#${team.id}）`)
      return undefined
    },
  }),
  route({
    method: 'PUT',
    path: '/api/admin/users/:userid',
    role: 'Admin',
    body: AdminUserInfoModel,
    response: 'empty',
    summary: 'Edit a user (role and ban included); Identity refusals are ignored as in the reference',
    handler: async (ctx, { params, body }) => {
      const { user, saved, previousRole } = await updateUserAsAdmin(ctx.em, params.userid, body)
      if (!saved) return undefined
      if (user.role !== previousRole) {
        ctx.services.realtime.disconnectUser(user.id)
        if (user.role === 'Banned') await audit(ctx, `封禁用户 ${user.userName}`, 'Warning')
        else await audit(ctx, `用户 ${user.userName} 的角色：${previousRole} => ${user.role}`)
      }
      await audit(ctx, `管理员更新用户 ${user.userName} 的信息`)
      return undefined
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/users/:userid/password',
    role: 'Admin',
    params: userGuid,
    response: z.string(),
    summary: 'Reset a password to a new random one',
    handler: async (ctx, { params }) => {
      const { user, password } = await resetUserPassword(ctx.em, params.userid)
      ctx.services.realtime.disconnectUser(user.id)
      await audit(ctx, `重置用户 ${user.userName} 的密码`, 'Warning')
      return password
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/users/:userid',
    role: 'Admin',
    params: userGuid,
    response: 'empty',
    summary: 'Delete a user (not yourself, not a captain)',
    handler: async (ctx, { params }) => {
      const { user, teamIds } = await deleteUserAsAdmin(ctx.em, ctx.services.storage, ctx.state.user!.id, params.userid)
      ctx.services.realtime.disconnectUser(user.id)
      for (const id of teamIds) {
        const team = await findTeam(ctx.em.fork(), id)
        if (team) announceTeamChange(ctx.outbox, { teamId: id, team: presentTeamInfo(team) })
      }
      await invalidatePosts(ctx.services)
      await audit(ctx, `删除用户 ${user.userName}`, 'Warning')
      return undefined
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/teams/:id',
    role: 'Admin',
    params: teamId,
    response: 'empty',
    summary: 'Delete a team with its participations',
    handler: async (ctx, { params }) => {
      const { team, members, gameIds } = await deleteTeamAsAdmin(ctx.em, ctx.services.storage, params.id)
      announceTeamChange(ctx.outbox, { teamId: params.id, team: null, left: members })
      for (const gameId of gameIds) await requestScoreboardRebuild(ctx.services, gameId)
      await audit(ctx, `管理员删除队伍 ${team.name}（#${params.id}）`, 'Warning')
      return undefined
    },
  }),
  route({
    method: 'GET',
    path: '/api/admin/users/:userid',
    role: 'Admin',
    params: userGuid,
    response: ProfileUserInfoModel,
    summary: "A user's profile",
    handler: async (ctx, { params }) => {
      const user = await findUserById(ctx.em, params.userid)
      if (!user) throw notFound('用户未找到')
      return presentProfile(user)
    },
  }),
  route({
    method: 'GET',
    path: '/api/admin/files',
    role: 'Admin',
    query: pagingQuery(50),
    response: arrayResponseOf(LocalFile),
    summary: 'Stored files by name, paged (`total` is the page length)',
    handler: async (ctx, { query }) => {
      const files = await listFiles(ctx.em, query.count, query.skip)
      return { data: files.map(presentLocalFile), length: files.length, total: files.length }
    },
  }),
]
