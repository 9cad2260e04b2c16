/**
 * Events as data (docs/archive.md): export, import, clone and the static archive of a game.
 * Admin only. The import is sent with XMLHttpRequest for its upload progress (docs/archive.md#progress);
 * the downloads go through `downloadFile`, whose browser download shows theirs.
 */
import { GameImportResult, type StaticArchiveOptions } from '@flagwave/shared/schemas/gameArchive'
import { GameInfoModel } from '@flagwave/shared/schemas/games'
import { ApiError, buildUrl, CLIENT_ERROR_MESSAGES, errorFromResponse, http, lenientBody, xsrfHeaders } from './http'
import { downloadFile } from './monitor'

const game = (id: number) => `/api/edit/games/${id}`

export const gameArchiveApi = {
  /** Save the game's archive (zip) under the server's download name. */
  export: (id: number) => downloadFile(`${game(id)}/export`, `Game-${id}.zip`, undefined, {}),
  /** Save the static site of a finished game (zip). */
  staticArchive: (id: number, options: StaticArchiveOptions) => downloadFile(`${game(id)}/archive`, `Archive-${id}.zip`, undefined, { json: options }),
  /** 200 GameInfoModel of the copy. */
  clone: (id: number) => http.post(`${game(id)}/clone`, { schema: GameInfoModel }),
  /** Upload an archive or challenge.yml; `onProgress` gets the uploaded fraction (0…1). */
  import: (file: File, onProgress: (fraction: number) => void): Promise<GameImportResult> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest()
      xhr.open('POST', buildUrl('/api/edit/games/import'))
      xhr.withCredentials = true
      for (const [name, value] of Object.entries(xsrfHeaders())) xhr.setRequestHeader(name, value)
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total)
      }
      xhr.onerror = () => reject(new ApiError('network', CLIENT_ERROR_MESSAGES.network, 0))
      xhr.onload = () => {
        const body = lenientBody(xhr.responseText)
        if (xhr.status !== 200) return reject(errorFromResponse(new Response(null, { status: xhr.status }), body))
        const parsed = GameImportResult.safeParse(body)
        if (!parsed.success) return reject(new ApiError('badResponse', CLIENT_ERROR_MESSAGES.badResponse, xhr.status))
        resolve(parsed.data)
      }
      const form = new FormData()
      form.append('file', file, file.name)
      xhr.send(form)
    }),
}
