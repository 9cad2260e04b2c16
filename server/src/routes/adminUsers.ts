/**
 * Group `admin`, users, teams and files (docs/compatibility.md#group-admin). Every endpoint is
 * `RequireAdmin`. Role changes, bans, password resets and deletions take effect at once: the
 * user's sockets are dropped after the commit (they reconnect with what they may now see).
 */
import { z } from 'zod'
import { ADMIN_LIST_MAX, arrayResponseOf, pagingQuery } from '@flagwave/shared/schemas/common'
import { AdminUserInfoModel, SearchHintQuery, UserCreateModelList, UserInfoModel } from '@flagwave/shared/schemas/users'
import { ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import { AdminTeamModel, TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { LocalFile } from '@flagwave/shared/schemas/admin'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { guidParam, intParam, route } from '../http/route.js'
import { notFound } from '../lib/errors.js'
import { presentProfile, presentUserInfo } from '../presenters/users.js'
import { presentTeamInfo } from '../presenters/teams.js'
import { presentLocalFile } from '../presenters/files.js'
import { createUsers, deleteUserAsAdmin, findUserById, listUsers, resetUserPassword, searchUsers, updateUserAsAdmin } from '../domain/users/admin.js'
import { deleteTeamAsAdmin, listTeams, searchTeams, updateTeamAsAdmin } from '../domain/teams/admin.js'
import { listFiles } from '../domain/assets/assets.js'

const userGuid = z.object({ userid: guidParam })
const teamId = z.object({ id: intParam })

export const adminUserRoutes = [
  route({
    method: 'GET',
    path: '/api/admin/users',
    role: 'Admin',
    query: pagingQuery(100, ADMIN_LIST_MAX),
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
    bodyLimit: BODY_LIMITS.content,
    response: 'empty',
    summary: 'Create (or update) users in one transaction, with their teams',
    handler: async (_ctx, { scope, actor, body }) => {
      await createUsers(scope, actor, body)
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
    query: pagingQuery(100, ADMIN_LIST_MAX),
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
    handler: async (_ctx, { scope, actor, params, body }) => {
      await updateTeamAsAdmin(scope, actor, params.id, body)
    },
  }),
  route({
    method: 'PUT',
    path: '/api/admin/users/:userid',
    role: 'Admin',
    body: AdminUserInfoModel,
    response: 'empty',
    summary: 'Edit a user (role and ban included); Identity refusals are ignored as in the reference',
    handler: async (_ctx, { scope, actor, params, body }) => {
      await updateUserAsAdmin(scope, actor, params.userid, body)
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/users/:userid/password',
    role: 'Admin',
    params: userGuid,
    response: z.string(),
    summary: 'Reset a password to a new random one',
    handler: async (_ctx, { scope, actor, params }) => resetUserPassword(scope, actor, params.userid),
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/users/:userid',
    role: 'Admin',
    params: userGuid,
    response: 'empty',
    summary: 'Delete a user (not yourself, not a captain)',
    handler: async (_ctx, { scope, actor, params }) => {
      await deleteUserAsAdmin(scope, actor, params.userid)
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/teams/:id',
    role: 'Admin',
    params: teamId,
    response: 'empty',
    summary: 'Delete a team with its participations',
    handler: async (_ctx, { scope, actor, params }) => {
      await deleteTeamAsAdmin(scope, actor, params.id)
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
    query: pagingQuery(50, ADMIN_LIST_MAX),
    response: arrayResponseOf(LocalFile),
    summary: 'Stored files by name, paged (`total` is the page length)',
    handler: async (ctx, { query }) => {
      const files = await listFiles(ctx.em, query.count, query.skip)
      return { data: files.map(presentLocalFile), length: files.length, total: files.length }
    },
  }),
]
