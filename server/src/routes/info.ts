/** Group `info` (docs/compatibility.md#group-info): public configuration and captcha settings. Posts live in routes/posts.ts. */
import { ClientCaptchaInfoModel, GlobalConfig } from '@flagwave/shared/schemas/config'
import { route } from '../http/route.js'
import { presentGlobalConfig } from '../presenters/config.js'
import { captchaInfo } from '../domain/accounts/captcha.js'

export const infoRoutes = [
  route({
    method: 'GET',
    path: '/api/config',
    response: GlobalConfig,
    summary: 'Public platform configuration (GlobalConfig + beianInfo)',
    handler: async (ctx) => presentGlobalConfig(await ctx.services.settings.get(ctx.em)),
  }),
  route({
    method: 'GET',
    path: '/api/captcha',
    response: ClientCaptchaInfoModel,
    summary: 'Captcha provider and public site key',
    handler: async (ctx) => captchaInfo(ctx.services.config, await ctx.services.settings.get(ctx.em)),
  }),
]
