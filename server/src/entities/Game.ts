import { defineEntity, p } from '@mikro-orm/core'
import { DEFAULT_BLOOD_BONUS } from '@flagwave/shared/limits'

export const GameSchema = defineEntity({
  name: 'Game',
  tableName: 'games',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(128),
    summary: p.text().default(''),
    content: p.text().default(''),
    hidden: p.boolean().default(false),
    practiceMode: p.boolean().default(true),
    acceptWithoutReview: p.boolean().default(false),
    inviteCode: p.string().length(32).nullable(),
    teamMemberCountLimit: p.integer().default(0),
    containerCountLimit: p.integer().default(3),
    posterHash: p.string().length(64).nullable(),
    /** Base64 of the raw 32-byte Ed25519 public key (docs/compatibility.md#game-notice-and-event-shapes). */
    publicKey: p.string().length(64),
    /** Base64 of the Ed25519 private seed, XOR-protected with XOR_KEY. */
    privateKey: p.string().length(128),
    start: p.datetime().index(),
    end: p.datetime(),
    wpddl: p.datetime(),
    wpNote: p.text().default(''),
    /** GZ::CTF 0.18's `writeupRequired`: shown to players; uploads work either way. */
    writeupRequired: p.boolean().default(false),
    bloodBonus: p.bigint('number').default(DEFAULT_BLOOD_BONUS),
    /** `GET /api/game/{id}/ctftime` is served (docs/webhooks.md#ctftime-feed); a Flagwave setting, outside GameInfoModel. */
    ctftimeFeed: p.boolean().default(false),
    /**
     * The scoreboard freeze (docs/scoring.md#freeze): from this time on the public board stays as it
     * stood then, until `unfrozenAt`. Null = no freeze planned. `boardFreeze()` in domain/games/freeze.ts is the rule.
     */
    freezeTime: p.datetime().nullable(),
    /** When the freeze was lifted (reveal finished or "unfreeze now"); cleared when the freeze time changes. */
    unfrozenAt: p.datetime().nullable(),
    /** Everyone may replay the board after the end (docs/scoring.md#replay); staff always may. */
    replayPublic: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
})
export class Game extends GameSchema.class {}
GameSchema.setClass(Game)
