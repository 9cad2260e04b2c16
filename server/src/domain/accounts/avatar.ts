/**
 * The caller's avatar (docs/compatibility.md#group-account, #file-and-image-urls): checked by content, GIFs kept as they are,
 * everything else resized to 300 px wide and stored as WebP. The previous avatar's file
 * reference is released only once the new one is saved, and its blob deleted after the commit.
 */
import { invalidateAfterCommit, tags } from '../../cache/invalidation.js'
import { AVATAR_WIDTH, IMAGE_MAX_BYTES } from '@flagwave/shared/limits'
import { badRequest } from '../../lib/errors.js'
import { processImage } from '../../lib/images.js'
import { User } from '../../entities/User.js'
import { fileTransaction } from '../files/files.js'
import { assetUrl } from '../../lib/assetUrls.js'
import type { UploadedFile } from '../../lib/uploads.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

/** The size checks every image upload shares (avatars, team avatars, posters). */
export function checkImageUpload(file: { size: number }): void {
  if (file.size === 0) throw badRequest('文件非法')
  if (file.size > IMAGE_MAX_BYTES) throw badRequest('文件过大')
}

/**
 * Returns the stored file's URL with its name: `/assets/{hash}/avatar.webp` or `…/avatar.gif`.
 * The previous avatar is read under the user's row lock, so two uploads at once never release it
 * twice (docs/architecture.md#stored-files).
 */
export async function updateAvatar(scope: Scope, actor: Actor, file: UploadedFile): Promise<string> {
  const { em, services } = scope
  const { user } = actor
  checkImageUpload(file)
  const image = await processImage(file.path, { resizeWidth: AVATAR_WIDTH })
  if (!image) throw badRequest('用户头像更新失败')
  const name = `avatar.${image.extension}`
  const hash = await fileTransaction(em, services.storage, async (tx, files) => {
    const [row] = await tx.execute<{ avatar_hash: string | null }[]>('select avatar_hash from users where id = ? for update', [user.id])
    if (!row) throw badRequest('用户更新失败')
    const blob = await files.stage(image.data)
    await files.lock([blob.hash, row.avatar_hash])
    const stored = await files.store(blob, name)
    await files.release(row.avatar_hash)
    await tx.nativeUpdate(User, { id: user.id }, { avatarHash: stored.hash })
    await invalidateAfterCommit(tx, [tags.user(user.id)])
    return stored.hash
  })
  await services.audit.success(actor, `更改新头像：[${hash.slice(0, 8)}]`)
  return assetUrl(hash, name)
}
