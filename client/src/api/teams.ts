/** Group `team` (docs/compatibility.md#group-team), typed with the shared schemas. */
import { z } from 'zod'
import { TeamInfoModel, type TeamTransferModel, type TeamUpdateModel } from '@flagwave/shared/schemas/teams'
import { http } from './http'

type In<T extends z.ZodType> = z.input<T>


const team = (id: number) => `/api/team/${id}`

export const teamApi = {
  /** 200 bare array of TeamInfoModel (with members): every team the caller belongs to. */
  list: () => http.get('/api/team', { schema: z.array(TeamInfoModel) }),
  get: (id: number) => http.get(team(id), { schema: TeamInfoModel }),
  /** 200 TeamInfoModel; the caller is captain and only member. */
  create: (body: In<typeof TeamUpdateModel>) => http.post('/api/team', { json: body, schema: TeamInfoModel }),
  /** Captain. `name` null/empty keeps; `bio` always replaces. */
  update: (id: number, body: In<typeof TeamUpdateModel>) => http.put(team(id), { json: body, schema: TeamInfoModel }),
  /** Captain. 200 TeamInfoModel with the new captain flagged. */
  transfer: (id: number, body: In<typeof TeamTransferModel>) => http.put(`${team(id)}/transfer`, { json: body, schema: TeamInfoModel }),
  /** Captain. 200 JSON string `{name}:{id}:{token}` (docs/compatibility.md#team-invite-code). */
  invite: (id: number) => http.get(`${team(id)}/invite`, { schema: z.string() }),
  /** Captain. Regenerates the token; old codes stop working. */
  regenerateInvite: (id: number) => http.put(`${team(id)}/invite`, { schema: z.string() }),
  /** Captain. 200 TeamInfoModel after the removal. */
  kick: (id: number, userId: string) => http.post(`${team(id)}/kick/${encodeURIComponent(userId)}`, { schema: TeamInfoModel }),
  /** 200, empty body. */
  leave: (id: number) => http.post(`${team(id)}/leave`),
  /** Captain. Multipart `file`; 200 JSON string: the stored avatar URL. */
  avatar: (id: number, file: File) => {
    const form = new FormData()
    form.append('file', file, file.name)
    return http.put(`${team(id)}/avatar`, { form, schema: z.string() })
  },
  /** Captain. 200, empty body. */
  remove: (id: number) => http.delete(team(id)),
  /** The body is a bare JSON string literal holding the code (docs/compatibility.md#group-team). 200, empty body. */
  accept: (code: string) => http.post('/api/team/accept', { json: code }),
}
