/**
 * Group `edit`, games part (docs/compatibility.md#group-edit), plus what the game editors need from other
 * groups: the participation review (docs/compatibility.md#group-game-reading-and-joining, #group-admin), the write-ups (docs/compatibility.md#group-admin) and the
 * asset upload (docs/compatibility.md#group-assets, through `adminApi.files.upload`). Every call requires the Admin role.
 *
 * Their query keys (../api/queryKeys.ts `queryKeys.edit`) follow the request paths, so the list,
 * the editor and its sub-screens share one entry per resource; `invalidateEdit` marks them stale
 * after a change.
 */
import { z } from 'zod'
import { ContainerProviderModel } from '@flagwave/shared/schemas/admin'
import { ParticipationStatus, TaskStatus } from '@flagwave/shared/enums'
import { arrayResponseOf } from '@flagwave/shared/schemas/common'
import { Division, GameInfoModel, GameNotice, type DivisionInput, type GameInfoInput, type GameNoticeModel } from '@flagwave/shared/schemas/games'
import {
  ChallengeEditDetailModel,
  ChallengeInfoModel,
  ContainerInfoModel,
  type AttachmentCreateModel,
  type ChallengeCreateModel,
  type ChallengeUpdateModel,
  type FlagCreateModel,
} from '@flagwave/shared/schemas/challenges'
import { WriteupInfoModel } from '@flagwave/shared/schemas/play'
import { CostedHint, PrerequisitesModel, type CostedHintsInput, type PrerequisitesInput } from '@flagwave/shared/schemas/challengeRules'
import { CtftimeSetting, WebhookDeliveryModel, WebhookModel, type WebhookInput } from '@flagwave/shared/schemas/webhooks'
import { ParticipationInfoModel } from '@flagwave/shared/schemas/teams'
import { adminApi } from './admin'
import { hashKey, type QueryKey } from '@tanstack/react-query'
import { http } from './http'
import { queryClient } from './queryClient'
import { queryKeys } from './queryKeys'

type In<T extends z.ZodType> = z.input<T>

/** The request body of the game create/update endpoints (GameInfoModel on the wire). */
export type GameInfoRequest = In<typeof GameInfoInput>
export type ChallengeUpdateRequest = In<typeof ChallengeUpdateModel>
export type FlagCreateRequest = In<typeof FlagCreateModel>
export type AttachmentRequest = In<typeof AttachmentCreateModel>

const GamePage = arrayResponseOf(GameInfoModel)

const game = (id: number) => `/api/edit/games/${id}`
const challenge = (id: number, cId: number) => `${game(id)}/challenges/${cId}`


const DeliveryPage = arrayResponseOf(WebhookDeliveryModel)

export const editApi = {
  /** Flagwave: the container engine configured (`none`: containers cannot start). */
  containerProvider: () => http.get('/api/edit/containers/provider', { schema: ContainerProviderModel }),
  /** Flagwave's webhooks of a game (docs/webhooks.md); secrets included, Admin only. */
  webhooks: {
    list: (id: number) => http.get(`${game(id)}/webhooks`, { schema: z.array(WebhookModel) }),
    create: (id: number, body: WebhookInput) => http.post(`${game(id)}/webhooks`, { json: body, schema: WebhookModel }),
    update: (id: number, webhookId: number, body: WebhookInput) => http.put(`${game(id)}/webhooks/${webhookId}`, { json: body, schema: WebhookModel }),
    remove: (id: number, webhookId: number) => http.delete(`${game(id)}/webhooks/${webhookId}`),
    /** Queues a `test` delivery; 200 with its log row. */
    test: (id: number, webhookId: number) => http.post(`${game(id)}/webhooks/${webhookId}/test`, { schema: WebhookDeliveryModel }),
    deliveries: (id: number, webhookId: number) => http.get(`${game(id)}/webhooks/${webhookId}/deliveries`, { query: { count: 20, skip: 0 }, schema: DeliveryPage }),
  },
  /** The game's CTFtime feed switch (docs/webhooks.md#ctftime-feed). */
  ctftime: {
    get: (id: number) => http.get(`${game(id)}/ctftime`, { schema: CtftimeSetting }),
    set: (id: number, enabled: boolean) => http.put(`${game(id)}/ctftime`, { json: { enabled }, schema: CtftimeSetting }),
  },
  games: {
    /** ArrayResponse ordered by id descending; `total` = number of games. `count` defaults to 0 on the server. */
    list: (count: number, skip: number) => http.get('/api/edit/games', { query: { count, skip }, schema: GamePage }),
    /** 200 GameInfoModel of the new game. */
    create: (body: GameInfoRequest) => http.post('/api/edit/games', { json: body, schema: GameInfoModel }),
    get: (id: number) => http.get(game(id), { schema: GameInfoModel }),
    /** A full replacement (organizations null = keep); 200 GameInfoModel. */
    update: (id: number, body: GameInfoRequest) => http.put(game(id), { json: body, schema: GameInfoModel }),
    /** 200, empty body. */
    remove: (id: number) => http.delete(game(id)),
    /** Freeze the public scoreboard now / lift the freeze now (docs/scoring.md#freeze); 200 GameInfoModel. */
    freeze: (id: number) => http.post(`${game(id)}/freeze`, { schema: GameInfoModel }),
    unfreeze: (id: number) => http.post(`${game(id)}/unfreeze`, { schema: GameInfoModel }),
    /** 200 JSON string: 64 hex characters, the `[TEAM_HASH]` salt. */
    teamHashSalt: (id: number) => http.get(`${game(id)}/teamhashsalt`, { schema: z.string() }),
    /** Multipart part `file`; 200 JSON string `/assets/{hash}/poster.webp` (or `.gif`). */
    poster: (id: number, file: File) => {
      const form = new FormData()
      form.append('file', file, file.name)
      return http.put(`${game(id)}/poster`, { form, schema: z.string() })
    },
    /** Release every write-up of the game; 200, empty body. */
    removeWriteups: (id: number) => http.delete(`${game(id)}/writeups`),
  },
  notices: {
    /** The game's `Normal` notices. */
    list: (id: number) => http.get(`${game(id)}/notices`, { schema: z.array(GameNotice) }),
    /** 200 GameNotice (pushed to players). */
    create: (id: number, body: In<typeof GameNoticeModel>) => http.post(`${game(id)}/notices`, { json: body, schema: GameNotice }),
    /** 200 GameNotice with time = now (not pushed). */
    update: (id: number, noticeId: number, body: In<typeof GameNoticeModel>) =>
      http.put(`${game(id)}/notices/${noticeId}`, { json: body, schema: GameNotice }),
    remove: (id: number, noticeId: number) => http.delete(`${game(id)}/notices/${noticeId}`),
  },
  challenges: {
    /** Ordered by id; no game lookup (unknown game → []). */
    list: (id: number) => http.get(`${game(id)}/challenges`, { schema: z.array(ChallengeInfoModel) }),
    /** Only `title`, `tag`, `type` are used; the new challenge is disabled. */
    create: (id: number, body: In<typeof ChallengeCreateModel>) => http.post(`${game(id)}/challenges`, { json: body, schema: ChallengeEditDetailModel }),
    get: (id: number, cId: number) => http.get(challenge(id, cId), { schema: ChallengeEditDetailModel }),
    /** Partial update (null keeps; `enableTrafficCapture` omitted = false). Flags are not touched. */
    update: (id: number, cId: number, body: ChallengeUpdateRequest) => http.put(challenge(id, cId), { json: body, schema: ChallengeEditDetailModel }),
    /**
     * Enable or disable. `enableTrafficCapture` is sent as an explicit null (= keep): omitting it
     * would switch traffic capture off (docs/compatibility.md#challenge-shapes).
     */
    setEnabled: (id: number, cId: number, isEnabled: boolean) =>
      http.put(challenge(id, cId), { json: { isEnabled, enableTrafficCapture: null } satisfies ChallengeUpdateRequest, schema: ChallengeEditDetailModel }),
    remove: (id: number, cId: number) => http.delete(challenge(id, cId)),
    /** Costed hints (docs/challenge-rules.md#costed-hints): the list, replaced whole. */
    hints: (id: number, cId: number) => http.get(`${challenge(id, cId)}/hints`, { schema: z.array(CostedHint) }),
    setHints: (id: number, cId: number, body: In<typeof CostedHintsInput>) => http.put(`${challenge(id, cId)}/hints`, { json: body, schema: z.array(CostedHint) }),
    /** Prerequisites (docs/challenge-rules.md#prerequisites); a cycle or another game's challenge → 400. */
    prerequisites: (id: number, cId: number) => http.get(`${challenge(id, cId)}/prerequisites`, { schema: PrerequisitesModel }),
    setPrerequisites: (id: number, cId: number, body: In<typeof PrerequisitesInput>) =>
      http.put(`${challenge(id, cId)}/prerequisites`, { json: body, schema: PrerequisitesModel }),
    /** Replace the challenge-wide attachment (`None` removes it); 200, empty body. */
    attachment: (id: number, cId: number, body: AttachmentRequest) => http.post(`${challenge(id, cId)}/attachment`, { json: body }),
    /** Append flags; 200, empty body. */
    addFlags: (id: number, cId: number, flags: FlagCreateRequest[]) => http.post(`${challenge(id, cId)}/flags`, { json: flags }),
    /** 200 JSON string TaskStatus: `Success` or `NotFound`. */
    removeFlag: (id: number, cId: number, flagId: number) => http.delete(`${challenge(id, cId)}/flags/${flagId}`, { schema: z.enum(TaskStatus) }),
    /** Start the admin test container; 200 ContainerInfoModel. */
    startContainer: (id: number, cId: number) => http.post(`${challenge(id, cId)}/container`, { schema: ContainerInfoModel }),
    /** Destroy the test container (none is not an error); 200, empty body. */
    stopContainer: (id: number, cId: number) => http.delete(`${challenge(id, cId)}/container`),
  },
  /** Upload files through POST /api/assets; resolves to the LocalFile list in upload order. */
  uploadAssets: (files: File[]) => adminApi.files.upload(files),
  participations: {
    /** Every participation of the game (all statuses), ordered by team id. */
    list: (id: number) => http.get(`/api/game/${id}/participations`, { schema: z.array(ParticipationInfoModel) }),
    /** 200, empty body. */
    setStatus: (participationId: number, status: ParticipationStatus) => http.put(`/api/admin/participation/${participationId}/${status}`),
    /** Move a participation to another division (GZ::CTF 1.7 `PUT /api/admin/participation/{id}`); 200, empty body. */
    setDivision: (participationId: number, divisionId: number) => http.put(`/api/admin/participation/${participationId}`, { json: { divisionId } }),
  },
  /** The game's divisions with their invite codes (docs/scoring.md#divisions). */
  divisions: {
    list: (id: number) => http.get(`${game(id)}/divisions`, { schema: z.array(Division) }),
    create: (id: number, body: In<typeof DivisionInput>) => http.post(`${game(id)}/divisions`, { json: body, schema: Division }),
    /** Null `defaultPermissions` / `challengeConfigs` keep them. */
    update: (id: number, divisionId: number, body: In<typeof DivisionInput>) => http.put(`${game(id)}/divisions/${divisionId}`, { json: body, schema: Division }),
    /** 400 while teams are in it; 200, empty body. */
    remove: (id: number, divisionId: number) => http.delete(`${game(id)}/divisions/${divisionId}`),
  },
  writeups: {
    /** The uploaded write-ups, newest first. */
    list: (id: number) => http.get(`/api/admin/writeups/${id}`, { schema: z.array(WriteupInfoModel) }),
    /** Download URL of the zip of all write-ups. */
    allUrl: (id: number) => `/api/admin/writeups/${id}/all`,
  },
}

/**
 * After an edit: every query under `prefix` (default: all edit keys) is marked stale and refetched
 * where it is on screen; `exact` replaces one key's data at once with a server answer.
 */
export function invalidateEdit(prefix: QueryKey = queryKeys.edit.all, exact?: { key: QueryKey; data: unknown }): void {
  const exactHash = exact ? hashKey(exact.key) : null
  if (exact) queryClient.setQueryData(exact.key, exact.data)
  void queryClient.invalidateQueries({ queryKey: prefix, predicate: (query) => query.queryHash !== exactHash })
}

/** The game list pages (any page size) are stale after a create, update or delete. */
export function invalidateGameLists(): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.edit.gameLists })
  void queryClient.invalidateQueries({ queryKey: queryKeys.game.list, exact: true })
}

/** A deleted game or challenge: forget its cached queries. */
export function forgetEdit(prefix: QueryKey): void {
  queryClient.removeQueries({ queryKey: prefix })
}
