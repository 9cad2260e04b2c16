/**
 * The caller's avatar (docs/compatibility.md#group-account, #file-and-image-urls): checked by content, GIFs kept as they are,
 * everything else resized to 300 px wide and stored as WebP. The previous avatar's file
 * reference is released only once the new one is saved, and its blob deleted after the commit.
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { AVATAR_WIDTH, IMAGE_MAX_BYTES } from '@flagwave/shared/limits'
import { badRequest } from '../../lib/errors.js'
import { processImage } from '../../lib/images.js'
import { releaseFile, removeBlobs, storeFile } from '../files/files.js'
import { assetUrl } from '../../lib/assetUrls.js'
import type { UploadedFile } from '../../lib/uploads.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

/** The size checks every image upload shares (avatars, team avatars, posters). */
export function checkImageUpload(file: { size: number }): void {
  if (file.size === 0) throw badRequest('文件非法')
  if (file.size > IMAGE_MAX_BYTES) throw badRequest('文件过大')
}

/** Returns the stored file's URL with its name: `/assets/{hash}/avatar.webp` or `…/avatar.gif`. */
export async function updateAvatar(scope: Scope, actor: Actor, file: UploadedFile): Promise<string> {
  const { em, services } = scope
  const { user } = actor
  checkImageUpload(file)
  const image = await processImage(file.path, { resizeWidth: AVATAR_WIDTH })
  if (!image) throw badRequest('用户头像更新失败')
  const name = `avatar.${image.extension}`
  const stored = await storeFile(em, services.storage, image.data, name)
  const released = await releaseFile(em, user.avatarHash)
  user.avatarHash = stored.hash
  try {
    await em.flush()
  } catch (err) {
    await removeBlobs(em, services.storage, [stored.hash])
    if (err instanceof UniqueConstraintViolationException) throw badRequest('用户更新失败')
    throw err
  }
  await removeBlobs(em, services.storage, [released])
  await services.audit.success(actor, `更改新头像：[${stored.hash.slice(0, 8)}]`)
  return assetUrl(stored.hash, name)
}
