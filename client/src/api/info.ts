/** Group `info` (docs/compatibility.md#group-info): public configuration, captcha and posts. */
import { z } from 'zod'
import { GlobalConfig, ClientCaptchaInfoModel } from '@flagwave/shared/schemas/config'
import { PostDetailModel, PostInfoModel } from '@flagwave/shared/schemas/posts'
import { http } from './http'


export const infoApi = {
  config: () => http.get('/api/config', { schema: GlobalConfig }),
  captcha: () => http.get('/api/captcha', { schema: ClientCaptchaInfoModel }),
  latestPosts: () => http.get('/api/posts/latest', { schema: z.array(PostInfoModel) }),
  posts: () => http.get('/api/posts', { schema: z.array(PostInfoModel) }),
  post: (id: string) => http.get(`/api/posts/${encodeURIComponent(id)}`, { schema: PostDetailModel }),
}
