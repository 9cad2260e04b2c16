/**
 * The organiser's logo (newer GZ::CTF's `POST/DELETE /api/admin/config/logo`,
 * docs/compatibility.md#branding): one uploaded image gives the logo (GIF kept, else WebP at full
 * size) and a 256-pixel-wide favicon, stored as blobs and named by `globalConfig.logoHash` and
 * `faviconHash`. The settings rows and the file references change in one transaction under the
 * settings lock, so concurrent uploads never leak or double-release a blob; the store is refreshed
 * and the public config pushed after the commit.
 */
import { badRequest } from '../../lib/errors.js'
import type { UploadedFile } from '../../lib/uploads.js'
import { processImage } from '../../lib/images.js'
import { assetUrl } from '../../lib/assetUrls.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { fileTransaction } from '../files/files.js'
import { writeSettingsIn } from './settings.js'

/** Same limit as a poster (docs/compatibility.md#group-edit). */
const LOGO_MAX_BYTES = 3 * 1024 * 1024
const FAVICON_WIDTH = 256
const LOGO_KEY = 'globalConfig.logoHash'
const FAVICON_KEY = 'globalConfig.faviconHash'

/** Point the settings at `logo`/`favicon` ('' = none), releasing the files they named before. */
async function replaceBranding(scope: Scope, images: { logo: Buffer; logoName: string; favicon: Buffer; faviconName: string } | null): Promise<string | null> {
  const { em, services } = scope
  const logoHash = await fileTransaction(em, services.storage, async (tx, files) => {
    const staged = images ? [await files.stage(images.logo), await files.stage(images.favicon)] : []
    const patch = { globalConfig: { logoHash: staged[0]?.hash ?? '', faviconHash: staged[1]?.hash ?? '' } }
    const before = await writeSettingsIn(tx, patch, [LOGO_KEY, FAVICON_KEY])
    const old = [before.get(LOGO_KEY) || null, before.get(FAVICON_KEY) || null]
    await files.lock([...staged.map((blob) => blob.hash), ...old])
    if (images) {
      await files.store(staged[0]!, images.logoName)
      await files.store(staged[1]!, images.faviconName)
    }
    for (const hash of old) await files.release(hash)
    return staged[0]?.hash ?? null
  })
  await services.settings.update(em, {})
  return logoHash
}

/** `POST /api/admin/config/logo`: returns the logo's URL. */
export async function setLogo(scope: Scope, actor: Actor, file: UploadedFile): Promise<string> {
  if (file.size === 0) throw badRequest('文件非法')
  if (file.size > LOGO_MAX_BYTES) throw badRequest('文件过大')
  const [logo, favicon] = await Promise.all([processImage(file.path), processImage(file.path, { resizeWidth: FAVICON_WIDTH })])
  if (!logo || !favicon) throw badRequest('文件创建失败')
  const logoName = `logo.${logo.extension}`
  const hash = await replaceBranding(scope, { logo: logo.data, logoName, favicon: favicon.data, faviconName: `favicon.${favicon.extension}` })
  await scope.services.audit.success(actor, '更新了平台标志')
  return assetUrl(hash!, logoName)
}

/** `DELETE /api/admin/config/logo`: back to the built-in logo and favicon. */
export async function removeLogo(scope: Scope, actor: Actor): Promise<void> {
  await replaceBranding(scope, null)
  await scope.services.audit.success(actor, '移除了平台标志')
}
