/** Group `info` (CONTRACT §3.6): public configuration, captcha and posts. */
import { z } from 'zod'
import { GlobalConfig, ClientCaptchaInfoModel } from '@flagwave/shared/schemas/config'
import { PostDetailModel, PostInfoModel } from '@flagwave/shared/schemas/posts'
import { http } from './http'

export const CONFIG_KEY = '/api/config'
export const CAPTCHA_KEY = '/api/captcha'
export const LATEST_POSTS_KEY = '/api/posts/latest'
export const POSTS_KEY = '/api/posts'

export const infoApi = {
  config: () => http.get(CONFIG_KEY, { schema: GlobalConfig }),
  captcha: () => http.get(CAPTCHA_KEY, { schema: ClientCaptchaInfoModel }),
  latestPosts: () => http.get(LATEST_POSTS_KEY, { schema: z.array(PostInfoModel) }),
  posts: () => http.get(POSTS_KEY, { schema: z.array(PostInfoModel) }),
  post: (id: string) => http.get(`/api/posts/${encodeURIComponent(id)}`, { schema: PostDetailModel }),
}
