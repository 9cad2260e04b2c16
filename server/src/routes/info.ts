/** Group `info` (docs/compatibility.md#group-info): public configuration and captcha settings. Posts live in routes/posts.ts. */
import { ClientCaptchaInfoModel, ClientConfig } from '@flagwave/shared/schemas/config'
import { route } from '../http/route.js'
import { presentClientConfig } from '../presenters/config.js'
import { captchaInfo } from '../domain/accounts/captcha.js'

export const infoRoutes = [
  route({
    method: 'GET',
    path: '/api/config',
    response: ClientConfig,
    summary: 'Public platform configuration (GlobalConfig + beianInfo, with the members of newer GZ::CTF versions)',
    handler: async (ctx) => presentClientConfig(await ctx.services.settings.get(ctx.em), ctx.services.config.CONTAINER_PORT_MAPPING),
  }),
  route({
    method: 'GET',
    path: '/api/captcha',
    response: ClientCaptchaInfoModel,
    summary: 'Captcha provider and public site key',
    handler: async (ctx) => captchaInfo(ctx.services.config, await ctx.services.settings.get(ctx.em)),
  }),
]
