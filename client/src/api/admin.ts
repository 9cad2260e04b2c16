/**
 * Group `admin`: users, teams and files (docs/compatibility.md#group-admin) and the asset upload
 * and deletion of group `assets` (docs/compatibility.md#group-assets). Every call requires the Admin role.
 */
import { z } from 'zod'
import { arrayResponseOf } from '@flagwave/shared/schemas/common'
import { ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import { LocalFile } from '@flagwave/shared/schemas/admin'
import { AdminTeamModel, TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { AdminUserInfoModel, UserInfoModel, type UserCreateModel } from '@flagwave/shared/schemas/users'
import { http } from './http'

type In<T extends z.ZodType> = z.input<T>

const UserPage = arrayResponseOf(UserInfoModel)
const TeamPage = arrayResponseOf(TeamInfoModel)
const FilePage = arrayResponseOf(LocalFile)

const user = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`

export const adminApi = {
  users: {
    /** ArrayResponse ordered by id; `total` = number of users. */
    list: (count: number, skip: number) => http.get('/api/admin/users', { query: { count, skip }, schema: UserPage }),
    /** At most 30 matches (user name, student number, e-mail, id, real name); `total` = `length`. */
    search: (hint: string) => http.post('/api/admin/users/search', { query: { hint }, schema: UserPage }),
    get: (id: string) => http.get(user(id), { schema: ProfileUserInfoModel }),
    /** Each non-null member overwrites (role and emailConfirmed included). 200, empty body. */
    update: (id: string, body: In<typeof AdminUserInfoModel>) => http.put(user(id), { json: body }),
    /** 200 JSON string: the new random password. */
    resetPassword: (id: string) => http.delete(`${user(id)}/password`, { schema: z.string() }),
    remove: (id: string) => http.delete(user(id)),
    /** One transaction; users sharing a `teamName` are put in one new team. 200, empty body. */
    create: (body: In<typeof UserCreateModel>[]) => http.post('/api/admin/users', { json: body }),
  },
  teams: {
    list: (count: number, skip: number) => http.get('/api/admin/teams', { query: { count, skip }, schema: TeamPage }),
    search: (hint: string) => http.post('/api/admin/teams/search', { query: { hint }, schema: TeamPage }),
    /** `name`/`bio` null or empty keep, `locked` null keeps. 200, empty body. */
    update: (id: number, body: In<typeof AdminTeamModel>) => http.put(`/api/admin/teams/${id}`, { json: body }),
    remove: (id: number) => http.delete(`/api/admin/teams/${id}`),
  },
  files: {
    /** Ordered by name; `total` is the page length (docs/compatibility.md#group-admin), not the global count. */
    list: (count: number, skip: number) => http.get('/api/admin/files', { query: { count, skip }, schema: FilePage }),
    /** Multipart, every part named `files`; 200 LocalFile[] in upload order. */
    upload: (files: File[]) => {
      const form = new FormData()
      for (const file of files) form.append('files', file, file.name)
      return http.post('/api/assets', { form, schema: z.array(LocalFile) })
    },
    /** Drops one reference; the last one deletes the file. 200, empty body. */
    remove: (hash: string) => http.delete(`/api/assets/${encodeURIComponent(hash)}`),
  },
}

/** The download URL of a stored file (docs/compatibility.md#group-assets, no `/api` prefix). */
export const fileUrl = (file: LocalFile): string => `/assets/${file.hash}/${encodeURIComponent(file.name)}`
