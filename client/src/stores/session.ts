/**
 * The signed-in user (GET /api/account/profile) and the session actions.
 *
 * `status` is `unknown` until the first profile answer, unless a profile was restored from the
 * persisted query cache (then it is optimistically `authenticated` and revalidated at start).
 * A 401 makes the session anonymous; a body `status` 403 (banned, docs/compatibility.md#group-account) logs out
 * and notifies "account disabled". Session changes clear the private cache and reconnect the
 * realtime hubs so that their rooms follow the new identity.
 */
import { create } from 'zustand'
import { notifications } from '@mantine/notifications'
import { roleRank, type Role } from '@flagwave/shared/enums'
import { SIGNED_IN_COOKIE } from '@flagwave/shared/limits'
import type { ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import type { z } from 'zod'
import type { LoginModel } from '@flagwave/shared/schemas/account'
import { queryOptions } from '@tanstack/react-query'
import { accountApi } from '../api/account'
import { clearPrivateData, queryClient } from '../api/queryClient'
import { queryKeys } from '../api/queryKeys'
import { ApiError, readCookie } from '../api/http'
import { restartHubs } from '../realtime/hub'
import { t } from '../i18n'

type SessionStatus = 'unknown' | 'authenticated' | 'anonymous'

interface SessionState {
  profile: ProfileUserInfoModel | null
  status: SessionStatus
  /** The account was found disabled (body status 403); notified once until the next sign-in. */
  disabled: boolean
  /** Apply a profile answer (used by the profile query and by `refresh`). */
  setProfile: (profile: ProfileUserInfoModel) => void
  /** Apply a failed profile answer. */
  handleProfileError: (error: unknown) => void
  /** Refetch the profile; resolves to it, or null when signed out. */
  refresh: () => Promise<ProfileUserInfoModel | null>
  login: (body: z.input<typeof LoginModel>) => Promise<ProfileUserInfoModel | null>
  /** Called after an action that signed the user in without `login` (register, verify). */
  signedIn: () => Promise<ProfileUserInfoModel | null>
  logout: (options?: { silent?: boolean }) => Promise<void>
}

/**
 * Whether the server handed this browser a session cookie (the readable marker beside the HttpOnly
 * cookie, docs/compatibility.md#sessions-and-roles). Without it nobody is signed in, and the profile is not asked for.
 */
export const hasSignedInMarker = (): boolean => readCookie(SIGNED_IN_COOKIE) !== null

/** A profile persisted from an earlier visit counts only while the session that fetched it lasts. */
function restoredProfile(): ProfileUserInfoModel | null {
  const cached = queryClient.getQueryData<ProfileUserInfoModel>(queryKeys.profile) ?? null
  if (cached && !hasSignedInMarker()) clearPrivateData()
  return hasSignedInMarker() ? cached : null
}

const cachedProfile = restoredProfile()

const ACCOUNT_DISABLED_MESSAGE = t('账户已被禁用')

export const useSession = create<SessionState>((set, get) => ({
  profile: cachedProfile,
  status: cachedProfile ? 'authenticated' : hasSignedInMarker() ? 'unknown' : 'anonymous',
  disabled: false,

  setProfile: (profile) => {
    const previous = get().profile
    set({ profile, status: 'authenticated', disabled: false })
    if (previous && previous.userId !== profile.userId) restartHubs()
  },

  handleProfileError: (error) => {
    if (!(error instanceof ApiError)) return
    if (error.bodyStatus === 403 || (error.bodyStatus === null && error.status === 403)) {
      // Banned (docs/compatibility.md#group-account): log out and say so, once; the server may keep answering 403
      // for the cookie, which the client cannot remove itself (HttpOnly).
      if (get().disabled) return
      set({ disabled: true })
      void get().logout({ silent: true })
      // A fixed id: revalidations racing each other (focus, the 10 s refresh) show it once.
      notifications.show({ id: 'account-disabled', color: 'alert', title: ACCOUNT_DISABLED_MESSAGE, message: error.message })
      return
    }
    if (error.status === 401) {
      const wasSignedIn = get().profile !== null
      if (wasSignedIn) clearPrivateData()
      else queryClient.removeQueries({ queryKey: queryKeys.profile, exact: true })
      set({ profile: null, status: 'anonymous' })
      if (wasSignedIn) restartHubs()
    }
  },

  refresh: async () => {
    try {
      return await queryClient.fetchQuery({ ...profileQuery, staleTime: 0 })
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null
      throw error
    }
  },

  login: async (body) => {
    await accountApi.login(body)
    return get().signedIn()
  },

  signedIn: async () => {
    set({ disabled: false })
    clearPrivateData()
    const profile = await get().refresh()
    restartHubs()
    return profile
  },

  logout: async ({ silent = false } = {}) => {
    try {
      await accountApi.logout()
    } catch (error) {
      if (!silent && !(error instanceof ApiError && error.status === 401)) throw error
    }
    clearPrivateData()
    set({ profile: null, status: 'anonymous' })
    restartHubs()
  },
}))

/**
 * GET /api/account/profile; every answer is applied to the session (a 401 signs out, a 403 body
 * status means the account is disabled). App's `SessionSync` keeps it fresh while a session may
 * exist (signed in, or the marker says a cookie was handed out); `refresh` forces it.
 */
export const profileQuery = queryOptions({
  queryKey: queryKeys.profile,
  queryFn: async () => {
    try {
      const profile = await accountApi.profile()
      useSession.getState().setProfile(profile)
      return profile
    } catch (error) {
      useSession.getState().handleProfileError(error)
      throw error
    }
  },
})

/** The caller's role, or null when signed out. */
export const useRole = (): Role | null => useSession((state) => state.profile?.role ?? null)

export const hasRole = (role: Role | null | undefined, minimum: Role): boolean => role != null && roleRank(role) >= roleRank(minimum)

