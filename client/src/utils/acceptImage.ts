import { IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from '@flagwave/shared/limits'
import { notifyError } from './notify'
import { t } from '../i18n'

const ACCEPTED = IMAGE_MIME_TYPES as readonly string[]

/**
 * Check a picked image (avatars, posters) before uploading it: a type or size the server would
 * refuse is reported under `failureTitle` at once and the upload is skipped.
 */
export function acceptImage(file: File, failureTitle: string): boolean {
  if (!ACCEPTED.includes(file.type)) {
    notifyError(new Error(t('不支持的图片格式：{{v0}}', { v0: file.type || t('未知') })), failureTitle)
    return false
  }
  if (file.size > IMAGE_MAX_BYTES) {
    notifyError(new Error(t('文件过大')), failureTitle)
    return false
  }
  return true
}
