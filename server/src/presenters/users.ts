/** User entities → contract shapes (docs/compatibility.md#user-shapes). */
import type { ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import type { UserInfoModel } from '@flagwave/shared/schemas/users'
import { toWireDate } from '@flagwave/shared/format'
import type { User } from '../entities/User.js'
import { avatarUrl } from '../lib/assetUrls.js'

/** The caller's own profile (`GET /api/account/profile`), also team members in TeamWithDetailedUserInfo. */
export function presentProfile(user: User): ProfileUserInfoModel {
  return {
    userId: user.id,
    userName: user.userName,
    email: user.email,
    bio: user.bio ?? '',
    phone: user.phone ?? null,
    realName: user.realName ?? '',
    stdNumber: user.stdNumber ?? '',
    avatar: avatarUrl(user.avatarHash),
    role: user.role,
  }
}

/** One user in the admin views (`GET /api/admin/users`, `/users/search`, `/users/{id}`). */
export function presentUserInfo(user: User): UserInfoModel {
  return {
    id: user.id,
    userName: user.userName,
    realName: user.realName ?? '',
    stdNumber: user.stdNumber ?? '',
    phone: user.phone ?? null,
    bio: user.bio ?? '',
    registerTimeUTC: toWireDate(user.registerTime),
    lastVisitedUTC: toWireDate(user.lastVisited),
    registerTimeUtc: toWireDate(user.registerTime),
    lastVisitedUtc: toWireDate(user.lastVisited),
    ip: user.ip || '0.0.0.0',
    email: user.email,
    avatar: avatarUrl(user.avatarHash),
    role: user.role,
    emailConfirmed: user.emailConfirmed,
  }
}
