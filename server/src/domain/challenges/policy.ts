/**
 * Rules of a challenge update, checked after the lookups in the order of docs/compatibility.md#group-edit,
 * and of attachment edits (docs/compatibility.md#group-edit).
 */
import { isContainerType, type ChallengeType } from '@flagwave/shared/enums'
import { isAcceptableTemplate, WEAK_TEMPLATE_MESSAGE } from '@flagwave/shared/flags'
import type { ChallengeUpdateModel } from '@flagwave/shared/schemas/challenges'
import { badRequest } from '../../lib/errors.js'

export const isBlank = (s: string | null | undefined): boolean => s === null || s === undefined || s.trim() === ''

export function assertChallengeUpdate(challenge: { type: ChallengeType }, flagCount: number, model: ChallengeUpdateModel): void {
  if (model.isEnabled === true && flagCount === 0 && challenge.type !== 'DynamicContainer') throw badRequest('题目无 flag，不可启用')
  if (model.enableTrafficCapture === true && !isContainerType(challenge.type)) throw badRequest('只有容器题目可以进行流量捕获')
  if (model.fileName !== null && isBlank(model.fileName)) throw badRequest('动态附件名不可为空')
  if (challenge.type === 'DynamicContainer' && !isBlank(model.flagTemplate) && !isAcceptableTemplate(model.flagTemplate)) {
    throw badRequest(WEAK_TEMPLATE_MESSAGE)
  }
}

/** Dynamic-attachment challenges carry their files on the flags (docs/compatibility.md#group-edit). */
export function assertChallengeAttachmentAllowed(challenge: { type: ChallengeType }): void {
  if (challenge.type === 'DynamicAttachment') throw badRequest('动态附件题目请使用 assets API 上传附件')
}
