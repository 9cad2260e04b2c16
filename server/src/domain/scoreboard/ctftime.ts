/**
 * The CTFtime feed (docs/webhooks.md#ctftime-feed): the scoreboard in CTFtime's import format,
 * served only for games whose organiser switched it on, visible and started. It is a read model of
 * the scoreboard snapshot: the feed's JSON is made once per snapshot version and kept with it, so
 * a request never rebuilds the board or re-serialises it.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { JsonText } from '../../lib/jsonText.js'
import { notFound } from '../../lib/errors.js'
import { presentCtftimeFeed } from '../../presenters/webhooks.js'
import type { Services } from '../../services.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { readGame } from '../play/gate.js'
import { findGame } from '../games/games.js'
import type { ScoreboardSnapshot } from './snapshot.js'

const feeds = new WeakMap<ScoreboardSnapshot, JsonText>()

/** `GET /api/game/{id}/ctftime`: 404 `比赛未找到` when the game is unknown, hidden, not started or its feed is off. */
export async function ctftimeFeed(em: EntityManager, services: Services, gameId: number): Promise<JsonText> {
  const game = await readGame(em, gameId)
  if (!game || game.hidden || !game.ctftimeFeed || Date.now() < game.start.getTime()) throw notFound('比赛未找到')
  const snapshot = await services.scoreboard.snapshot(gameId)
  if (!snapshot) throw notFound('比赛未找到')
  let feed = feeds.get(snapshot)
  if (!feed) {
    feed = new JsonText(JSON.stringify(presentCtftimeFeed(snapshot.model)))
    feeds.set(snapshot, feed)
  }
  return feed
}

export async function ctftimeSetting(em: EntityManager, gameId: number): Promise<boolean> {
  return (await findGame(em, gameId)).ctftimeFeed
}

/** `PUT /api/edit/games/{id}/ctftime`. */
export async function setCtftimeFeed(scope: Scope, actor: Actor, gameId: number, enabled: boolean): Promise<boolean> {
  const game = await findGame(scope.em, gameId)
  game.ctftimeFeed = enabled
  await scope.em.flush()
  await scope.services.audit.success(actor, `${enabled ? '开启' : '关闭'}了比赛 #${gameId} 的 CTFtime 数据源`)
  return enabled
}
