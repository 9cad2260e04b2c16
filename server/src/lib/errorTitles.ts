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
