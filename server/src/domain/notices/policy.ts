/** Which notices an admin may change (docs/compatibility.md#group-edit): only `Normal` ones. */
import type { GameNotice } from '../../entities/GameNotice.js'
import { badRequest } from '../../lib/errors.js'

export function assertNoticeEditable(notice: Pick<GameNotice, 'type'>): void {
  if (notice.type !== 'Normal') throw badRequest('不能更改系统通知')
}

export function assertNoticeDeletable(notice: Pick<GameNotice, 'type'>): void {
  if (notice.type !== 'Normal') throw badRequest('不能删除系统通知')
}
