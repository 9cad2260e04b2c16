import { describe, it, expect } from 'vitest'
import type { z } from 'zod'
import {
  AdminUserInfoModel,
  ChallengeCreateModel,
  ChallengeUpdateModel,
  ConfigEditInput,
  ConfigEditModel,
  FlagCreateModel,
  FlagSubmitModel,
  GameInfoInput,
  GameInfoModel,
  GameJoinModel,
  GameNoticeModel,
  GlobalConfig,
  LoginModel,
  PostEditModel,
  RegisterModel,
  ScoreboardModel,
  TeamInfoModel,
  TeamTransferModel,
  TeamUpdateModel,
  UserCreateModel,
  UserInfoModel,
  trafficCaptureAfterUpdate,
  toWireDate,
  wireEnum,
  ChallengeTag,
  TaskStatus,
} from '@flagwave/shared'
import { ADMIN_LIST_MAX, ADMIN_LOG_MAX, pagingQuery } from '@flagwave/shared/schemas/common'
import { LogsQuery } from '@flagwave/shared/schemas/admin'

/** The message the server would put in the 400 title: the first issue's. */
function firstError(schema: z.ZodType, input: unknown): string | undefined {
  const r = schema.safeParse(input)
  return r.success ? undefined : r.error.issues[0]?.message
}

describe('request validation messages', () => {
  it('account shapes', () => {
    expect(firstError(RegisterModel, { password: 'Passw0rd', email: 'a@b.c' })).toBe('用户名是必需的')
    expect(firstError(RegisterModel, { userName: null, password: 'Passw0rd', email: 'a@b.c' })).toBe('用户名是必需的')
    expect(firstError(RegisterModel, { userName: '   ', password: 'Passw0rd', email: 'a@b.c' })).toBe('用户名是必需的')
    expect(firstError(RegisterModel, { userName: 'ab', password: 'Passw0rd', email: 'a@b.c' })).toBe('用户名过短')
    expect(firstError(RegisterModel, { userName: 'abc', password: 'Passw0rd', email: 'ab.c' })).toBe('邮箱地址无效')
    expect(firstError(LoginModel, { userName: 'abc' })).toBe('The Password field is required.')
    expect(firstError(RegisterModel, { userName: 5, password: 'Passw0rd', email: 'a@b.c' })).toBe('The JSON value could not be converted to System.String.')
  })

  it('users', () => {
    const base = { userName: 'alice', password: 'Passw0rd', email: 'a@b.c' }
    expect(UserCreateModel.parse(base)).toEqual({ ...base, realName: null, stdNumber: null, phone: null, teamName: null })
    expect(firstError(UserCreateModel, { ...base, stdNumber: '1'.repeat(16) })).toBe('学工号过长')
    expect(firstError(UserCreateModel, { ...base, password: '12345' })).toBe("The field Password must be a string or array type with a minimum length of '6'.")
    expect(firstError(UserCreateModel, { ...base, phone: 'abc' })).toBe('手机号格式错误')
    expect(firstError(UserCreateModel, { ...base, teamName: 'x'.repeat(16) })).toBe('队伍名称过长')
    expect(firstError(AdminUserInfoModel, { email: 'bad' })).toBe('邮箱格式错误')
    expect(firstError(AdminUserInfoModel, { bio: 'x'.repeat(51) })).toBe('描述过长')
    expect(firstError(AdminUserInfoModel, { stdNumber: '1'.repeat(25) })).toBe('学工号过长')
    expect(AdminUserInfoModel.parse({})).toEqual({
      userName: null,
      email: null,
      bio: null,
      phone: null,
      realName: null,
      stdNumber: null,
      emailConfirmed: null,
      role: null,
    })
    expect(AdminUserInfoModel.parse({ role: 'admin', emailConfirmed: true }).role).toBe('Admin')
    expect(AdminUserInfoModel.parse({ role: 0 }).role).toBe('Banned')
  })

  it('teams', () => {
    expect(firstError(TeamUpdateModel, { name: 'x'.repeat(16) })).toBe('队伍名称过长')
    expect(firstError(TeamUpdateModel, { name: 'ok', bio: 'x'.repeat(32) })).toBe('队伍签名过长')
    expect(TeamUpdateModel.parse({})).toEqual({ name: null, bio: null })
    expect(firstError(TeamTransferModel, {})).toBe('The NewCaptainId field is required.')
  })

  it('posts', () => {
    expect(firstError(PostEditModel, {})).toBe('标题是必需的')
    expect(firstError(PostEditModel, { title: 'x'.repeat(51) })).toBe('标题过长')
    expect(firstError(PostEditModel, { title: 't', summary: null })).toBe('The Summary field is required.')
    expect(firstError(PostEditModel, { title: 't', content: null })).toBe('The Content field is required.')
    expect(firstError(PostEditModel, { title: 't', isPinned: null })).toBe('The JSON value could not be converted to System.Boolean.')
    expect(PostEditModel.parse({ title: 't', isPinned: true })).toEqual({ title: 't', summary: '', content: '', tags: [], isPinned: true })
  })

  it('games', () => {
    expect(firstError(GameInfoInput, {})).toBe('The Title field is required.')
    expect(firstError(GameInfoInput, { title: '' })).toBe('The Title field is required.')
    expect(firstError(GameInfoInput, { title: 'g', inviteCode: 'x'.repeat(33) })).toBe('邀请码过长')
    const g = GameInfoInput.parse({ id: 9, poster: 'p', publicKey: 'k', title: 'g' })
    expect(g).toEqual({
      title: 'g',
      hidden: false,
      summary: '',
      content: '',
      acceptWithoutReview: false,
      inviteCode: null,
      organizations: null,
      teamMemberCountLimit: 0,
      containerCountLimit: 3,
      practiceMode: true,
      start: new Date(0),
      end: new Date(0),
      wpddl: new Date(0),
      wpNote: '',
      bloodBonus: 52459530,
      // The newer names (GZ::CTF 0.18) parse to null when absent: the stored value (or the old name's) stays.
      writeupDeadline: null,
      writeupNote: null,
      writeupRequired: null,
      // Flagwave's freeze and replay settings: absent keeps (freezeTime undefined; null would remove the freeze).
      freezeTime: undefined,
      replayPublic: null,
    })
    expect(GameInfoInput.parse({ title: 'g', freezeTime: null }).freezeTime).toBeNull()
    expect(GameInfoInput.parse({ title: 'g', freezeTime: 1696118400000, replayPublic: true })).toMatchObject({ freezeTime: new Date('2023-10-01T00:00:00.000Z'), replayPublic: true })
    expect(firstError(GameInfoInput, { title: 'g', freezeTime: 'tomorrow' })).toBe('The JSON value could not be converted to System.DateTimeOffset.')
    expect(GameInfoInput.parse({ title: 'g', writeupDeadline: 1696118400000, writeupNote: 'n', writeupRequired: true })).toMatchObject({
      writeupDeadline: new Date('2023-10-01T00:00:00.000Z'),
      writeupNote: 'n',
      writeupRequired: true,
    })
    // Request times: ISO or integer Unix milliseconds (GZ::CTF 1.1+), nothing else.
    expect(GameInfoInput.parse({ title: 'g', start: 1696118400000 }).start.toISOString()).toBe('2023-10-01T00:00:00.000Z')
    for (const start of [1.5, 9e15, true, '1696118400000', {}]) expect(firstError(GameInfoInput, { title: 'g', start })).toBe('The JSON value could not be converted to System.DateTimeOffset.')
    const h = GameInfoInput.parse({
      title: 'g',
      organizations: ['A', 'B', 'A'],
      start: '2023-10-01T00:00:00.000Z',
      teamMemberCountLimit: '4',
      bloodBonus: 1001 * 2 ** 20,
    })
    expect(h.organizations).toEqual(['A', 'B'])
    expect(h.start.toISOString()).toBe('2023-10-01T00:00:00.000Z')
    expect(h.teamMemberCountLimit).toBe(4)
    expect(h.bloodBonus).toBe(52459530)
    expect(GameInfoInput.parse({ title: 'g', bloodBonus: 0 }).bloodBonus).toBe(0)
    expect(firstError(GameInfoInput, { title: 'g', teamMemberCountLimit: 'x' })).toBe('The JSON value could not be converted to System.Int32.')
    expect(GameJoinModel.parse({})).toEqual({ teamId: 0, organization: null, division: null, divisionId: null, inviteCode: null })
    expect(GameJoinModel.parse({ teamId: 5, division: 'A', divisionId: '3' })).toMatchObject({ division: 'A', divisionId: 3 })
    expect(GameJoinModel.parse({ teamId: '5' }).teamId).toBe(5)
    expect(firstError(GameNoticeModel, { content: '' })).toBe('内容是必需的')
  })

  it('challenge creation', () => {
    expect(firstError(ChallengeCreateModel, {})).toBe('标题是必需的')
    expect(firstError(ChallengeCreateModel, { title: '' })).toBe('标题是必需的')
    expect(ChallengeCreateModel.parse({ title: 't', score: 3 })).toEqual({ title: 't', tag: 'Misc', category: null, type: 'StaticAttachment' })
    expect(ChallengeCreateModel.parse({ title: 't', tag: 'web', type: 'DYNAMICCONTAINER' })).toMatchObject({ tag: 'Web', type: 'DynamicContainer' })
    expect(ChallengeCreateModel.parse({ title: 't', tag: 9, type: '2' })).toMatchObject({ tag: 'PPC', type: 'DynamicAttachment' })
    expect(firstError(ChallengeCreateModel, { title: 't', tag: 'Nope' })).toBe("The value 'Nope' is not valid.")
    // GZ::CTF's newer categories (AI 10, Pentest 11, OSINT 12) by code and by name; 13 is no category.
    expect(ChallengeCreateModel.parse({ title: 't', tag: 10 })).toMatchObject({ tag: 'AI' })
    expect(ChallengeCreateModel.parse({ title: 't', tag: 'osint' })).toMatchObject({ tag: 'OSINT' })
    expect(ChallengeCreateModel.parse({ title: 't', tag: 11 })).toMatchObject({ tag: 'Pentest' })
    expect(firstError(ChallengeCreateModel, { title: 't', tag: 13 })).toBe("The value '13' is not valid.")
  })

  it('admin list caps (GZ::CTF 1.2): a larger count answers the cap, never a 400', () => {
    expect(pagingQuery(100, ADMIN_LIST_MAX).parse({ count: '100000' })).toEqual({ count: 500, skip: 0 })
    expect(pagingQuery(100, ADMIN_LIST_MAX).parse({ count: '500', skip: '3' })).toEqual({ count: 500, skip: 3 })
    expect(pagingQuery(100, ADMIN_LIST_MAX).parse({})).toEqual({ count: 100, skip: 0 })
    expect(pagingQuery(20).parse({ count: '100000' }).count).toBe(100000)
    expect(LogsQuery.parse({ count: '5000' }).count).toBe(ADMIN_LOG_MAX)
    expect(LogsQuery.parse({ count: '999' }).count).toBe(999)
    expect(firstError(LogsQuery, { count: '-1' })).toBe('The field count must not be negative.')
  })

  it('challenge update', () => {
    expect(firstError(ChallengeUpdateModel, { memoryLimit: 1 })).toBe('MemoryLimit 的值必须介于 32 - 1048576')
    // Newer members: aliases parse; the neutral values of features Flagwave lacks pass, others are refused.
    expect(ChallengeUpdateModel.parse({ category: 11, exposePort: '8080', networkMode: 'open', submissionLimit: 0, deadlineUtc: null, disableBloodBonus: false })).toMatchObject({
      category: 'Pentest',
      exposePort: 8080,
      networkMode: 'Open',
      submissionLimit: 0,
      tag: null,
      containerExposePort: null,
    })
    // Challenge rules (docs/challenge-rules.md): a limit 0–10000; times omitted keep, null clears, a time sets.
    expect(firstError(ChallengeUpdateModel, { submissionLimit: -1 })).toBe('提交次数限制必须介于 0 - 10000')
    expect(firstError(ChallengeUpdateModel, { submissionLimit: 10001 })).toBe('提交次数限制必须介于 0 - 10000')
    expect(ChallengeUpdateModel.parse({ submissionLimit: '3' }).submissionLimit).toBe(3)
    expect(ChallengeUpdateModel.parse({}).deadlineUtc).toBeUndefined()
    expect(ChallengeUpdateModel.parse({ deadlineUtc: null }).deadlineUtc).toBeNull()
    expect(ChallengeUpdateModel.parse({ deadlineUtc: '2030-01-01T00:00:00Z' }).deadlineUtc).toEqual(new Date('2030-01-01T00:00:00Z'))
    expect(ChallengeUpdateModel.parse({ releaseTimeUtc: 1893456000000 }).releaseTimeUtc).toEqual(new Date(1893456000000))
    expect(firstError(ChallengeUpdateModel, { deadlineUtc: 'tomorrow' })).toBe('The JSON value could not be converted to System.DateTimeOffset.')
    expect(firstError(ChallengeUpdateModel, { networkMode: 'Custom' })).toBe('不支持该网络模式')
    expect(firstError(ChallengeUpdateModel, { memoryLimit: 1048577 })).toBe('MemoryLimit 的值必须介于 32 - 1048576')
    expect(firstError(ChallengeUpdateModel, { cpuCount: 0 })).toBe('CPUCount 的值必须介于 1 - 1024')
    expect(firstError(ChallengeUpdateModel, { storageLimit: 127 })).toBe('StorageLimit 的值必须介于 128 - 1048576')
    expect(firstError(ChallengeUpdateModel, { minScoreRate: 1.5 })).toBe('The field MinScoreRate must be between 0 and 1.')
    expect(firstError(ChallengeUpdateModel, { title: '' })).toBe('标题过短')
    expect(firstError(ChallengeUpdateModel, { flagTemplate: 'x'.repeat(121) })).toBe('flag 字符串过长')
    expect(firstError(ChallengeUpdateModel, { memoryLimit: 'abc' })).toBe('The JSON value could not be converted to System.Int32.')

    const empty = ChallengeUpdateModel.parse({})
    expect(empty).toMatchObject({ title: null, tag: null, hints: null, isEnabled: null, memoryLimit: null, minScoreRate: null })
    expect(empty.enableTrafficCapture).toBeUndefined()
    expect(ChallengeUpdateModel.parse({ enableTrafficCapture: null }).enableTrafficCapture).toBeNull()
    expect(ChallengeUpdateModel.parse({ enableTrafficCapture: true }).enableTrafficCapture).toBe(true)

    const u = ChallengeUpdateModel.parse({ memoryLimit: '128', cpuCount: 1024, containerImage: '  nginx:latest ', tag: 'pwn', hints: [], flagTemplate: '' })
    expect(u).toMatchObject({ memoryLimit: 128, cpuCount: 1024, containerImage: 'nginx:latest', tag: 'Pwn', hints: [], flagTemplate: '' })

    expect(trafficCaptureAfterUpdate(undefined, true, 'StaticContainer')).toBe(false)
    expect(trafficCaptureAfterUpdate(null, true, 'StaticContainer')).toBe(true)
    expect(trafficCaptureAfterUpdate(true, false, 'DynamicContainer')).toBe(true)
    expect(trafficCaptureAfterUpdate(null, true, 'StaticAttachment')).toBe(false)
  })

  it('flags', () => {
    expect(firstError(FlagCreateModel, {})).toBe('The Flag field is required.')
    expect(firstError(FlagCreateModel, { flag: 'x'.repeat(126) })).toBe('flag 字符串过长')
    expect(FlagCreateModel.parse({ flag: 'flag{x}' })).toEqual({ flag: 'flag{x}', attachmentType: 'None', fileHash: null, remoteUrl: null })
    expect(FlagCreateModel.parse({ flag: 'f', attachmentType: 'remote', remoteUrl: 'https://x' }).attachmentType).toBe('Remote')

    expect(firstError(FlagSubmitModel, {})).toBe('flag 是必需的')
    expect(firstError(FlagSubmitModel, { flag: 'x'.repeat(127) })).toBe('flag 过长')
    expect(firstError(FlagSubmitModel, { flag: 12 })).toBe('The JSON value could not be converted to System.String.')
    expect(FlagSubmitModel.parse({ flag: '  flag{x}\n' }).flag).toBe('flag{x}')
    expect(FlagSubmitModel.parse({ flag: 'x'.repeat(126) }).flag).toHaveLength(126)
  })

  it('config edit', () => {
    expect(ConfigEditInput.parse({})).toEqual({ accountPolicy: null, globalConfig: null, gamePolicy: null, containerPolicy: null })
    expect(ConfigEditInput.parse({ globalConfig: { title: 'X', footerInfo: null }, gamePolicy: { autoDestroyOnLimitReached: true } })).toEqual({
      accountPolicy: null,
      globalConfig: { title: 'X', slogan: null, footerInfo: null, beianInfo: null, description: null, customTheme: null, logoHash: null, faviconHash: null, apiEncryption: null },
      gamePolicy: { autoDestroyOnLimitReached: true },
      containerPolicy: null,
    })
    // GZ::CTF 0.18's containerPolicy: the switch, and only the fixed times.
    expect(ConfigEditInput.parse({ containerPolicy: { autoDestroyOnLimitReached: false, defaultLifetime: 120, renewalWindow: '10' } }).containerPolicy).toEqual({
      autoDestroyOnLimitReached: false,
      maxExerciseContainerCountPerUser: null,
      defaultLifetime: 120,
      extensionDuration: null,
      renewalWindow: 10,
    })
    expect(firstError(ConfigEditInput, { containerPolicy: { extensionDuration: 30 } })).toBe('容器时长不可修改')
    expect(firstError(ConfigEditInput, { globalConfig: { customTheme: 'x' } })).toBe('不支持自定义主题')
    expect(ConfigEditInput.parse({ globalConfig: { customTheme: '', apiEncryption: false } }).globalConfig).toMatchObject({ customTheme: '', apiEncryption: false })
    expect(firstError(ConfigEditInput, { accountPolicy: { allowRegister: 'yes' } })).toBe('The JSON value could not be converted to System.Boolean.')
  })
})

describe('enums on input', () => {
  it('accept names case-insensitively and integer codes', () => {
    const tag = wireEnum(ChallengeTag)
    expect(tag.parse('ppc')).toBe('PPC')
    expect(tag.parse('Crypto')).toBe('Crypto')
    expect(tag.parse(1)).toBe('Crypto')
    expect(tag.parse('1')).toBe('Crypto')
    expect(tag.safeParse(1.5).success).toBe(false)
    expect(wireEnum(TaskStatus, -1).parse(-1)).toBe('Pending')
  })
})

describe('response schemas', () => {
  const now = toWireDate(new Date('2023-09-29T14:51:23.12Z'))

  it('parse a complete game', () => {
    const game = {
      id: 1,
      title: 'g',
      hidden: false,
      summary: '',
      content: '',
      acceptWithoutReview: false,
      inviteCode: null,
      organizations: null,
      teamMemberCountLimit: 0,
      containerCountLimit: 3,
      poster: null,
      publicKey: 'A'.repeat(44),
      practiceMode: true,
      start: '1970-01-01T00:00:00+00:00',
      end: now,
      wpddl: now,
      wpNote: '',
      bloodBonus: 52459530,
      writeupDeadline: now,
      writeupNote: '',
      writeupRequired: false,
      freezeTime: null,
      replayPublic: false,
    }
    expect(GameInfoModel.parse(game)).toEqual(game)
    const { writeupRequired: _r, ...olderOnly } = game
    expect(GameInfoModel.safeParse(olderOnly).success).toBe(false)
    const { wpNote: _w, ...missing } = game
    expect(GameInfoModel.safeParse(missing).success).toBe(false)
    expect(GameInfoModel.safeParse({ ...game, end: '2023-10-01T00:00:00.000Z' }).success).toBe(false)
    expect(GameInfoModel.safeParse({ ...game, poster: undefined }).success).toBe(false)
  })

  it('parse a scoreboard', () => {
    const board = {
      updateTimeUTC: now,
      bloodBonus: 52459530,
      timeLines: { all: [{ id: 1, name: 't', items: [{ time: now, score: 525 }] }] },
      items: [
        {
          id: 1,
          name: 't',
          bio: null,
          organization: null,
          avatar: null,
          score: 525,
          rank: 1,
          organizationRank: null,
          solvedCount: 1,
          lastSubmissionTime: now,
          challenges: [{ id: 3, score: 525, type: 'FirstBlood', userName: 'alice', time: now }],
          solvedChallenges: [{ id: 3, score: 525, type: 'FirstBlood', userName: 'alice', time: now }],
          divisionId: null,
          divisionRank: null,
        },
      ],
      challenges: {
        Web: [
          {
            id: 3,
            title: 'c',
            tag: 'Web',
            score: 500,
            solved: 1,
            bloods: [{ id: 1, name: 't', avatar: null, submitTimeUTC: now, submitTimeUtc: now }],
            category: 'Web',
            disableBloodBonus: false,
            deadline: null,
          },
        ],
      },
      updateTimeUtc: now,
      timelines: [{ divisionId: 0, teams: [{ id: 1, name: 't', items: [{ time: now, score: 525 }] }] }],
      challengeCount: 1,
      divisions: [],
    }
    expect(ScoreboardModel.parse(board)).toEqual(board)
    const { solvedChallenges: _s, ...olderItem } = board.items[0]!
    expect(ScoreboardModel.safeParse({ ...board, items: [olderItem] }).success).toBe(false)
    expect(ScoreboardModel.safeParse({ ...board, challenges: { Nope: [] } }).success).toBe(false)
  })

  it('parse users, teams and config', () => {
    const user = {
      id: '7d0e1d0c-0000-4000-8000-000000000000',
      userName: 'alice',
      realName: '',
      stdNumber: '',
      phone: null,
      bio: '',
      registerTimeUTC: '1970-01-01T00:00:00+00:00',
      lastVisitedUTC: now,
      registerTimeUtc: '1970-01-01T00:00:00+00:00',
      lastVisitedUtc: now,
      ip: '0.0.0.0',
      email: 'a@b.c',
      avatar: null,
      role: 'User',
      emailConfirmed: true,
    }
    expect(UserInfoModel.parse(user)).toEqual(user)
    expect(UserInfoModel.safeParse({ ...user, role: 'user' }).success).toBe(false)
    const team = { id: 1, name: 't', bio: null, avatar: null, locked: false, members: [{ id: user.id, userName: 'alice', bio: '', avatar: null, captain: true }] }
    expect(TeamInfoModel.parse(team)).toEqual(team)
    expect(GlobalConfig.parse({ title: 'GZ', slogan: 's', footerInfo: null })).toEqual({ title: 'GZ', slogan: 's', footerInfo: null, beianInfo: null, logoHash: null, faviconHash: null })
    expect(
      ConfigEditModel.parse({
        accountPolicy: { allowRegister: true, activeOnRegister: true, useCaptcha: false, emailConfirmationRequired: false, emailDomainList: '' },
        globalConfig: { title: 'GZ', slogan: 's', footerInfo: null, beianInfo: '京ICP备00000000号', description: null, customTheme: null, logoHash: null, faviconHash: null, apiEncryption: false },
        gamePolicy: { autoDestroyOnLimitReached: false },
        containerPolicy: { autoDestroyOnLimitReached: false, maxExerciseContainerCountPerUser: 1, defaultLifetime: 120, extensionDuration: 120, renewalWindow: 10 },
      }).globalConfig?.beianInfo,
    ).toBe('京ICP备00000000号')
  })
})
