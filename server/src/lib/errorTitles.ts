/**
 * Error titles in the caller's language, the way newer GZ::CTF does it (docs/compatibility.md#error-title-language):
 * the contract's titles are the Chinese texts thrown by the code; a caller whose preferred
 * supported language is English gets our own English titles. Chinese, `*`, no header or no
 * supported language: the contract's titles, byte for byte. A title missing here stays as thrown.
 */

type TitleLanguage = 'zh' | 'en'

/**
 * The caller's language for titles: the supported (or `*`) tag of `Accept-Language` with the
 * highest weight, ties in header order; unsupported tags are skipped as ASP.NET's request
 * localisation skips them.
 */
export function titleLanguage(header: string | undefined): TitleLanguage {
  if (!header) return 'zh'
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const weight = q === undefined ? 1 : Number(q.slice(2))
      return { primary: tag!.trim().toLowerCase().split('-')[0]!, weight: Number.isFinite(weight) ? weight : 0, index }
    })
    .filter((r) => r.weight > 0 && (r.primary === 'zh' || r.primary === 'en' || r.primary === '*'))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  return ranges[0]?.primary === 'en' ? 'en' : 'zh'
}

const EN: Record<string, string> = {
  // Challenge rules (docs/challenge-rules.md)
  题目已截止提交: 'This challenge no longer accepts submissions: its deadline has passed',
  提交次数已达上限: 'Your team has used all its attempts at this challenge',
  定时开放的题目在开放前不可启用: 'A scheduled challenge cannot be enabled before its opening time',
  '提交次数限制必须介于 0 - 10000': 'The submission limit must be between 0 and 10000',
  // Divisions and newer GZ::CTF members
  不支持关闭单题的血量奖励: "Turning off a challenge's blood bonus is not supported",
  不支持该网络模式: 'This network mode is not supported',
  不支持平台描述: 'A platform description is not supported',
  不支持自定义主题: 'Custom themes are not supported',
  不支持载荷加密: 'Payload encryption is not supported',
  不支持练习容器: 'Exercise containers are not supported',
  容器时长不可修改: 'Container times cannot be changed',
  权限值无效: 'Invalid permission value',
  分组名称是必需的: 'The division name is required',
  题目设置过多: 'Too many challenge settings',
  '队伍 Token 无效': 'Invalid team token',
  你所在的分组无法提交此题: 'Your division cannot submit to this challenge',
  分组不存在: 'The division does not exist',
  '分组中仍有队伍，无法删除': 'The division still has teams and cannot be deleted',
  分组名称已存在: 'A division with this name already exists',
  分组未找到: 'Division not found',
  该分组不允许报名: 'This division does not accept new teams',
  // Sessions, permissions, requests
  请先登录: 'Please sign in first',
  无权访问: 'Access denied',
  跨站请求已被拒绝: 'Cross-site request refused',
  服务器内部错误: 'Internal server error',
  '校验失败，请检查输入。': 'Validation failed; check the input.',
  操作过于频繁: 'Too many requests',
  '操作过于频繁，请稍后再试': 'Too many requests, try again later',
  // Accounts
  注册功能已禁用: 'Registration is disabled',
  此账户已存在: 'This account already exists',
  用户名或密码错误: 'Wrong user name or password',
  密码错误: 'Wrong password',
  密码输入错误: 'Wrong password',
  用户已被禁用: 'The user is disabled',
  账户未激活: 'The account is not activated',
  '账户未激活，请重新注册': 'The account is not activated; register again',
  用户不存在: 'The user does not exist',
  用户未找到: 'User not found',
  请联系管理员重置密码: 'Ask an administrator to reset the password',
  '邮件无法发送，请联系管理员': 'The e-mail cannot be sent; contact the administrators',
  验证码无效: 'Invalid captcha',
  验证码校验失败: 'Captcha check failed',
  无效的邮件地址: 'Invalid e-mail address',
  邮箱验证失败: 'E-mail verification failed',
  未知错误: 'Unknown error',
  密码中需要大写字母: 'The password needs an upper-case letter',
  密码中需要小写字母: 'The password needs a lower-case letter',
  密码中需要数字: 'The password needs a digit',
  '密码长度 6 太短': 'The password is too short (6)',
  用户头像更新失败: 'Updating the avatar failed',
  用户更新失败: 'Updating the user failed',
  不可以删除自己: 'You cannot delete yourself',
  不可以删除队长: 'A team captain cannot be deleted',
  // Teams
  不允许创建多个队伍: 'You cannot create more teams',
  '你不在此队伍中，无法离队': 'You are not in this team',
  '你已经加入此队伍，无需重复加入': 'You are already in this team',
  队伍已锁定: 'The team is locked',
  队伍未找到: 'Team not found',
  队伍不存在: 'The team does not exist',
  用户不在队伍中: 'The user is not in the team',
  移交的用户不存在: 'The new captain does not exist',
  被移交者所管理的队伍过多: 'The new captain leads too many teams',
  队伍头像更新失败: 'Updating the team avatar failed',
  'Code 无效': 'Invalid invite code',
  // Games, participation, play
  比赛未找到: 'Game not found',
  比赛未开始: 'The game has not started',
  比赛已结束: 'The game has ended',
  比赛邀请码错误: 'Wrong game invite code',
  无效的参赛单位: 'Invalid organisation',
  您已经在其他队伍报名参赛: 'You have joined this game with another team',
  队伍参与人数超过比赛限制: 'The team has more members than the game allows',
  参与状态未找到: 'Participation not found',
  审核通过后无法退出比赛: 'An accepted team cannot leave the game',
  无法退出未报名的比赛: 'You cannot leave a game you have not joined',
  您不是此队伍的队员: 'You are not a member of this team',
  您尚未参赛: 'You have not joined this game',
  您的参赛申请尚未通过或被禁赛: 'Your entry is not accepted or is suspended',
  文件创建失败: 'Creating the file failed',
  '比赛删除失败，文件可能已受损，请重试': 'Deleting the game failed; files may be damaged, try again',
  '遇到问题，请重试': 'Something went wrong, try again',
  // Challenges, submissions, containers
  题目未找到: 'Challenge not found',
  '题目无 flag，不可启用': 'A challenge without flags cannot be enabled',
  动态附件名不可为空: 'The dynamic attachment name must not be empty',
  '动态附件题目请使用 assets API 上传附件': 'Upload dynamic attachments through the assets API',
  只有容器题目可以进行流量捕获: 'Only container challenges can capture traffic',
  题目未找到或动态附件分配失败: 'Challenge not found or no dynamic attachment could be assigned',
  提交未找到: 'Submission not found',
  容器创建失败: 'Creating the container failed',
  容器实例未找到: 'Container instance not found',
  容器实例销毁失败: 'Destroying the container failed',
  容器操作过于频繁: 'Too many container operations',
  容器时间尚不可延长: 'The container cannot be extended yet',
  容器配置错误: 'Container misconfigured',
  题目不可创建容器: 'This challenge has no container',
  题目类型不可创建容器: 'This challenge type has no container',
  题目创建容器失败: 'Creating the container failed',
  题目删除容器失败: 'Destroying the container failed',
  题目已经创建容器: 'The container already exists',
  题目未创建容器: 'No container has been created',
  未找到相关捕获信息: 'No capture found',
  'TCP 代理已禁用': 'The TCP proxy is disabled',
  不存在的容器: 'No such container',
  容器地址解析失败: 'The container address cannot be resolved',
  容器连接数已达上限: 'Too many connections to the container',
  无效的访问地址: 'Invalid address',
  // Notices, posts, files, writeups
  通知未找到: 'Notice not found',
  不能删除系统通知: 'System notices cannot be deleted',
  不能更改系统通知: 'System notices cannot be changed',
  文章不存在: 'The post does not exist',
  文章未找到: 'Post not found',
  文件不存在: 'The file does not exist',
  文件仍被引用: 'The file is still referenced',
  遇到IO错误: 'I/O error',
  提交截止时间已过: 'The deadline has passed',
  文件过大: 'File too large',
  文件非法: 'Invalid file',
  '请上传 pdf 文件': 'Upload a PDF file',
  // Validation messages of the shared schemas (the first one is the title)
  用户名是必需的: 'The user name is required',
  用户名过短: 'The user name is too short',
  用户名过长: 'The user name is too long',
  密码是必需的: 'The password is required',
  密码过短: 'The password is too short',
  邮箱是必需的: 'The e-mail is required',
  邮箱地址无效: 'Invalid e-mail address',
  邮箱格式错误: 'Malformed e-mail',
  Token是必需的: 'The token is required',
  描述过长: 'The bio is too long',
  手机号格式错误: 'Malformed phone number',
  真实姓名过长: 'The real name is too long',
  学工号过长: 'The student number is too long',
  旧密码是必需的: 'The old password is required',
  旧密码过短: 'The old password is too short',
  新密码是必需的: 'The new password is required',
  新密码过短: 'The new password is too short',
  标题是必需的: 'The title is required',
  标题过短: 'The title is too short',
  标题过长: 'The title is too long',
  内容是必需的: 'The content is required',
  'flag 是必需的': 'The flag is required',
  'flag 过长': 'The flag is too long',
  'flag 字符串过长': 'The flag is too long',
  'flag 复杂度不足，请考虑添加队伍哈希或增加长度': 'The flag template is too guessable; add the team hash or make it longer',
  动态附件名过长: 'The attachment name is too long',
  容器镜像名过长: 'The image name is too long',
  'MemoryLimit 的值必须介于 32 - 1048576': 'The memory limit must be between 32 and 1048576',
  'CPUCount 的值必须介于 1 - 1024': 'The CPU count must be between 1 and 1024',
  'StorageLimit 的值必须介于 128 - 1048576': 'The storage limit must be between 128 and 1048576',
  参赛单位名称过长: 'The organisation name is too long',
  邀请码过长: 'The invite code is too long',
  队伍名称过长: 'The team name is too long',
  队伍签名过长: 'The team bio is too long',
  队伍名不能为空: 'The team name must not be empty',
  // Two-factor sign-in, API tokens, single sign-on
  需要两步验证: 'Two-factor authentication required',
  验证码错误: 'Wrong code',
  尚未启用两步验证: 'Two-factor authentication is not on',
  请先启用两步验证: 'Turn on two-factor authentication first',
  '两步验证失败次数过多，请稍后再试': 'Too many failed two-factor attempts; try again later',
  两步验证已启用: 'Two-factor authentication is already on',
  请先开始启用两步验证: 'Start turning on two-factor authentication first',
  '站点策略要求启用两步验证，无法关闭': 'The site requires two-factor authentication; it cannot be turned off',
  '登录已过期，请重新输入密码': 'The sign-in expired; enter the password again',
  令牌未找到: 'Token not found',
  令牌权限超出账户角色: "The token's permissions exceed the account's role",
  令牌无效或已过期: 'The token is invalid or expired',
  'API 令牌不能用于此操作': 'API tokens cannot be used for this',
  令牌权限不足: 'The token lacks the permission',
  令牌名称不能为空: 'The token name must not be empty',
  令牌权限无效: 'Invalid token permission',
  请至少选择一项令牌权限: 'Choose at least one token permission',
  有效期无效: 'Invalid validity',
  参数无效: 'Invalid parameter',
  密码不能为空: 'The password must not be empty',
  未关联该登录方式: 'This sign-in method is not linked',
  未找到该登录方式: 'Sign-in method not found',
  登录服务暂时不可用: 'The sign-in service is unavailable',
  登录请求无效或已过期: 'The sign-in request is invalid or expired',
  登录服务拒绝了请求: 'The sign-in service refused the request',
  登录服务的应答无效: 'The sign-in service answered with something invalid',
  登录服务未验证该邮箱: 'The sign-in service has not verified this e-mail',
  该邮箱域名不允许登录: 'This e-mail domain may not sign in',
  账户等待管理员审核: "The account awaits an administrator's review",
  该外部账户已关联其他用户: 'This external account is linked to another user',
  已关联该登录方式: 'This sign-in method is already linked',
  无法关联已有账户: 'An existing account cannot be linked this way',
  本站仅允许单点登录: 'This site allows single sign-on only',
  该标识已存在: 'This id already exists',
  '标识只能包含小写字母、数字和连字符，至多 32 个字符': 'The id may hold lower-case letters, digits and hyphens, at most 32 characters',
  地址过长: 'The address is too long',
  名称是必需的: 'The name is required',
  名称过长: 'The name is too long',
  发行者地址无效: 'Invalid issuer address',
  发行者地址过长: 'The issuer address is too long',
  '客户端 ID 是必需的': 'The client ID is required',
  '客户端 ID 过长': 'The client ID is too long',
  客户端密钥过长: 'The client secret is too long',
  范围过长: 'The scopes are too long',
  范围之间用一个空格分隔: 'Separate scopes with one space',
  声明名称过长: 'The claim name is too long',
  'ssoOnly 必须是布尔值': 'ssoOnly must be a boolean',
  // Accounts (e-mail), storage, game archives, webhooks
  无效邮箱: 'Invalid e-mail',
  邮箱已经被占用: 'The e-mail is taken',
  请联系管理员修改邮箱: 'Ask an administrator to change the e-mail',
  存储服务暂不可用: 'The storage service is unavailable',
  比赛尚未结束: 'The game has not ended',
  'Webhook 未找到': 'Webhook not found',
  'URL 是必需的': 'The URL is required',
  'Telegram bot token 格式不正确': 'Malformed Telegram bot token',
  'Telegram chat ID 格式不正确': 'Malformed Telegram chat ID',
  '未知的 Webhook 类型': 'Unknown webhook type',
  'URL 过长': 'The URL is too long',
  密钥过长: 'The secret is too long',
  'Chat ID 过长': 'The chat ID is too long',
  未知的事件: 'Unknown event',
}

/** Titles with a value in them: the contract's pattern and its English form. */
const EN_PATTERNS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^用户名 (.*) 已存在$/, (m) => `The user name ${m[1]} is taken`],
  [/^用户名 (.*) 无效$/, (m) => `The user name ${m[1]} is invalid`],
  [/^(.*) 邀请无效$/, (m) => `${m[1]}: invalid invitation`],
  [/^(.*) 队伍已锁定$/, (m) => `${m[1]}: the team is locked`],
  [/^(.*) 队伍未找到$/, (m) => `${m[1]}: team not found`],
  [/^队伍 Id 转换错误：(.*)$/, (m) => `Invalid team id: ${m[1]}`],
  [/^队伍容器数目不能超过 (\d+)$/, (m) => `A team cannot have more than ${m[1]} containers`],
  [/^容器连接失败（(.*)）$/, (m) => `Connecting to the container failed (${m[1]})`],
  [/^邮箱地址 (.*) 已存在$/, (m) => `The e-mail address ${m[1]} is taken`],
  [/^邮箱地址 (.*) 无效$/, (m) => `The e-mail address ${m[1]} is invalid`],
  [/^最多只能拥有 (\d+) 个有效令牌$/, (m) => `At most ${m[1]} active tokens`],
  [/^令牌名称不能超过 (\d+) 个字符$/, (m) => `The token name must be at most ${m[1]} characters`],
  [/^有效期不能超过 (\d+) 天$/, (m) => `The validity must be at most ${m[1]} days`],
  [/^列表至多 (\d+) 个字符$/, (m) => `The list must be at most ${m[1]} characters`],
  [/^压缩包无效：(.*)$/, (m) => `Invalid archive: ${m[1]}`],
  [/^目标地址不被允许：(.*)$/, (m) => `The target address is not allowed: ${m[1]}`],
  [/^可用邮箱后缀：(.*)$/, (m) => `Allowed e-mail domains: ${m[1]}`],
]

/** `title` as the caller of `acceptLanguage` reads it. */
export function localizedTitle(title: string, acceptLanguage: string | undefined): string {
  if (titleLanguage(acceptLanguage) === 'zh') return title
  const fixed = EN[title]
  if (fixed !== undefined) return fixed
  for (const [pattern, render] of EN_PATTERNS) {
    const match = title.match(pattern)
    if (match) return render(match)
  }
  return title
}
