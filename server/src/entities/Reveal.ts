import { defineEntity, p } from '@mikro-orm/core'

/**
 * A game's staged reveal (docs/scoring.md#staged-reveal), shared by every screen: how many steps
 * are shown, the auto-play interval, and the freeze it reveals. Steps themselves are derived from
 * the submissions (domain/scoreboard/reveal/steps.ts), so the row is all a reload needs.
 */
export const RevealSchema = defineEntity({
  name: 'Reveal',
  tableName: 'reveals',
  properties: {
    /** The game (its row cascades with the game's, migrations/Migration20261126052000_replayReveal.ts). */
    gameId: p.integer().primary(),
    step: p.integer().default(0),
    /** Auto-play: milliseconds between steps; null = paused. */
    autoMs: p.integer().nullable(),
    freezeTime: p.datetime(),
    openedAt: p.datetime(),
    updatedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
})
class Reveal extends RevealSchema.class {}
RevealSchema.setClass(Reveal)
