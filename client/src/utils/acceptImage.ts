import { IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from '@flagwave/shared/limits'
import { notifyError } from './notify'
import { formatNumber, t } from '../i18n'

const ACCEPTED = IMAGE_MIME_TYPES as readonly string[]

/**
 * Check a picked image (avatars, posters) before uploading it: a type or size the server would
 * refuse is reported under `failureTitle` at once and the upload is skipped.
 */
export function acceptImage(file: File, failureTitle: string): boolean {
  if (!ACCEPTED.includes(file.type)) {
    notifyError(new Error(t('不支持此文件类型（{{type}}）：请选择 PNG、GIF、JPEG、WebP、BMP 或 TIFF 图片', { type: file.type || t('未知') })), failureTitle)
    return false
  }
  if (file.size > IMAGE_MAX_BYTES) {
    const mb = (bytes: number) => formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10)
    notifyError(new Error(t('图片为 {{size}} MB，超过了 {{max}} MB 的上限', { size: mb(file.size), max: mb(IMAGE_MAX_BYTES) })), failureTitle)
    return false
  }
  return true
}
