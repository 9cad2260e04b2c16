/**
 * Game notices (docs/compatibility.md#group-edit; docs/realtime.md#user-hub-events): admin announcements and the system notices of
 * challenge releases, hint updates and bloods. A new notice is pushed to the game room as
 * `ReceivedGameNotice` after the commit; edits and deletions are not pushed; every change drops
 * the players' cached list when it commits (docs/architecture.md#read-cache).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { NoticeType } from '@flagwave/shared/enums'
import { GameNotice } from '../../entities/GameNotice.js'
import type { Game } from '../../entities/Game.js'
import { notFound } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import { pushNotices } from './events.js'
import { enqueueEvent } from '../webhooks/outbox.js'
import { assertNoticeDeletable, assertNoticeEditable } from './policy.js'

/** System notice texts (docs/compatibility.md#game-notice-and-event-shapes GameNotice). */
export const noticeText = {
  newChallenge: (title: string) => `新增了题目 「${title}」`,
  newHint: (title: string) => `「${title}」 更新了提示`,
  blood: (team: string, title: string, rank: 0 | 1 | 2) => `恭喜 ${team} 获得 「${title}」 的${['一血', '二血', '三血'][rank]}`,
} as const

/** Create a notice in the caller's unit of work (flushed by the caller); `challenge`: the challenge a NewChallenge/NewHint notice names. */
export function addNotice(em: EntityManager, game: Game | number, type: NoticeType, content: string, now: Date = new Date(), challenge: number | null = null): GameNotice {
  return em.create(GameNotice, { game, type, content, publishTime: now, challenge })
}

/**
 * A challenge is disabled: its NewChallenge and NewHint notices go (in the caller's unit of work,
 * which drops the players' cached list on commit), so its title stops showing to players; enabling
 * it again announces it anew.
 */
export async function withdrawChallengeNotices(em: EntityManager, challengeId: number): Promise<void> {
  for (const notice of await em.find(GameNotice, { challenge: challengeId, type: { $in: ['NewChallenge', 'NewHint'] } })) em.remove(notice)
}

/**
 * `POST /api/edit/games/{id}/notices`: pushed to the game room, players' cache flushed, and
 * announced to the game's webhooks by deliveries written in the notice's transaction.
 */
export async function postNotice(scope: Scope, actor: Actor, game: Game, content: string): Promise<GameNotice> {
  const notice = await scope.em.transactional(async (em) => {
    const created = addNotice(em, game, 'Normal', content)
    await em.flush()
    await enqueueEvent(em, game.id, 'notice', { game: { id: game.id, title: game.title }, time: created.publishTime.toISOString(), content })
    return created
  })
  await pushNotices(scope.em, scope.events, game.id, [notice])
  await scope.services.audit.success(actor, `发布了比赛 #${game.id} 的通知 #${notice.id}`)
  return notice
}

/** A notice of the game, or 404 `通知未找到` (also for another game's notice; no game lookup). */
async function findNotice(em: EntityManager, gameId: number, noticeId: number): Promise<GameNotice> {
  const notice = await em.findOne(GameNotice, { id: noticeId, game: gameId })
  if (!notice) throw notFound('通知未找到')
  return notice
}

/** `PUT /api/edit/games/{id}/notices/{noticeId}`: new content, time = now (not pushed). */
export async function editNotice(scope: Scope, actor: Actor, gameId: number, noticeId: number, content: string): Promise<GameNotice> {
  const notice = await findNotice(scope.em, gameId, noticeId)
  assertNoticeEditable(notice)
  notice.content = content
  notice.publishTime = new Date()
  await scope.em.flush()
  await scope.services.audit.success(actor, `更新了比赛 #${gameId} 的通知 #${notice.id}`)
  return notice
}

/** `DELETE /api/edit/games/{id}/notices/{noticeId}` (not pushed). */
export async function removeNotice(scope: Scope, actor: Actor, gameId: number, noticeId: number): Promise<void> {
  const notice = await findNotice(scope.em, gameId, noticeId)
  assertNoticeDeletable(notice)
  await scope.em.remove(notice).flush()
  await scope.services.audit.success(actor, `删除了比赛 #${gameId} 的通知 #${noticeId}`)
}

/** `GET /api/edit/games/{id}/notices`: the `Normal` notices, oldest first. */
export async function listNormalNotices(em: EntityManager, gameId: number): Promise<GameNotice[]> {
  return em.find(GameNotice, { game: gameId, type: 'Normal' }, { orderBy: { id: 'asc' } })
}

/* ---------------------------------------------------------------------------------------------
 * The players' notice list (GET /api/game/{id}/notices) is kept in the read cache per game
 * (docs/architecture.md#read-cache): a notice written through the unit of work drops it on commit,
 * the bloods the checkers insert drop it in their own transaction (submissions/settle.ts). The
 * whole ordered list is cached; callers page it themselves.
 * ------------------------------------------------------------------------------------------- */

/** A notice as cached: a plain copy, so the cache holds no entity of a finished unit of work. */
export type NoticeRecord = Pick<GameNotice, 'id' | 'type' | 'content' | 'publishTime'> & { challengeId: number | null }

/** Every notice of a game as players see them: `Normal` first, then system notices, each newest first. */
async function loadGameNotices(em: EntityManager, gameId: number): Promise<NoticeRecord[]> {
  const notices = await em.find(GameNotice, { game: gameId }, { orderBy: { publishTime: 'desc', id: 'desc' } })
  const normal = notices.filter((n) => n.type === 'Normal')
  const system = notices.filter((n) => n.type !== 'Normal')
  return [...normal, ...system].map(({ id, type, content, publishTime, challenge }) => ({ id, type, content, publishTime, challengeId: challenge?.id ?? null }))
}

/** The players' notice list of a game, from the read cache (shared between requests: do not change it). */
export async function playerNotices(em: EntityManager, gameId: number): Promise<readonly NoticeRecord[]> {
  const list = await readCacheOf(em).read(`notices:${gameId}`, async () => ({
    value: await loadGameNotices(em.fork(), gameId),
    tags: [tags.gameNotices(gameId), tags.game(gameId)],
  }))
  return list!
}
