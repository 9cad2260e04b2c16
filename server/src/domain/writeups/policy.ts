/** Rules of a write-up upload (docs/compatibility.md#group-game-write-ups): the file checks (before the context gate) and the deadline. */
import { WRITEUP_MAX_BYTES } from '@flagwave/shared/limits'
import type { Game } from '../../entities/Game.js'
import type { UploadedFile } from '../../lib/uploads.js'
import { badRequest } from '../../lib/errors.js'

const FILE_EMPTY = '文件非法'
const FILE_TOO_LARGE = '文件过大'
const PDF_ONLY = '请上传 pdf 文件'
const DEADLINE_PASSED = '提交截止时间已过'

/** In order: empty, larger than 20 MiB, not exactly `application/pdf` or not named `*.pdf` (case-sensitive). */
export function assertWriteupFile(file: UploadedFile): void {
  if (file.size === 0) throw badRequest(FILE_EMPTY)
  if (file.size > WRITEUP_MAX_BYTES) throw badRequest(FILE_TOO_LARGE)
  if (file.mimeType !== 'application/pdf' || !file.name.endsWith('.pdf')) throw badRequest(PDF_ONLY)
}

export function assertBeforeDeadline(game: Pick<Game, 'wpddl'>, now = new Date()): void {
  if (now.getTime() > game.wpddl.getTime()) throw badRequest(DEADLINE_PASSED)
}
