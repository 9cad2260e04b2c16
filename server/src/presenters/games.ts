/**
 * Game shapes (docs/compatibility.md#game-notice-and-event-shapes): GameInfoModel for the edit endpoints, BasicGameInfoModel and
 * DetailedGameInfoModel for the player endpoints.
 */
import type { BasicGameInfoModel, DetailedGameInfoModel, Division, GameInfoModel } from '@flagwave/shared/schemas/games'
import type { DivisionRules } from '@flagwave/shared/divisions'
import type { ParticipationStatus } from '@flagwave/shared/enums'
import { toWireDate } from '@flagwave/shared/format'
import type { Game } from '../entities/Game.js'
import { boardFreeze, pendingFreeze } from '../domain/games/freeze.js'
import { posterUrl } from '../lib/assetUrls.js'
import { derivedJsonText, type JsonText } from '../lib/jsonText.js'

/** A division as the game shapes need it (docs/scoring.md#divisions): v0.17.6 sees its name as an organization. */
export interface DivisionLike {
  id: number
  name: string
  inviteCode: string | null
}

/** A division as its editors read it (`GET /api/edit/games/{id}/divisions`), invite code included. */
export function presentDivision(division: DivisionLike & DivisionRules): Division {
  return {
    id: division.id,
    name: division.name,
    inviteCode: division.inviteCode,
    defaultPermissions: division.defaultPermissions,
    challengeConfigs: division.challengeConfigs.map((c) => ({ challengeId: c.challengeId, permissions: c.permissions })),
  }
}

/** v0.17.6's `organizations`: the divisions' names, null without divisions. */
const organizationsOf = (divisions: readonly DivisionLike[]): string[] | null => (divisions.length > 0 ? divisions.map((d) => d.name) : null)

export function presentGameInfo(game: Game, divisions: readonly DivisionLike[]): GameInfoModel {
  return {
    id: game.id,
    title: game.title,
    hidden: game.hidden,
    summary: game.summary,
    content: game.content,
    acceptWithoutReview: game.acceptWithoutReview,
    inviteCode: game.inviteCode ?? null,
    organizations: organizationsOf(divisions),
    teamMemberCountLimit: game.teamMemberCountLimit,
    containerCountLimit: game.containerCountLimit,
    poster: posterUrl(game.posterHash),
    publicKey: game.publicKey,
    practiceMode: game.practiceMode,
    start: toWireDate(game.start),
    end: toWireDate(game.end),
    wpddl: toWireDate(game.wpddl),
    wpNote: game.wpNote,
    bloodBonus: Number(game.bloodBonus),
    writeupDeadline: toWireDate(game.wpddl),
    writeupNote: game.wpNote,
    writeupRequired: game.writeupRequired,
    freezeTime: wireDateOrNull(game.freezeTime),
    replayPublic: game.replayPublic,
  }
}

export function presentBasicGame(game: Pick<Game, 'id' | 'title' | 'summary' | 'posterHash' | 'teamMemberCountLimit' | 'start' | 'end'>): BasicGameInfoModel {
  return {
    id: game.id,
    title: game.title,
    summary: game.summary,
    poster: posterUrl(game.posterHash),
    limit: game.teamMemberCountLimit,
    start: toWireDate(game.start),
    end: toWireDate(game.end),
  }
}

/** The caller's side of DetailedGameInfoModel: their participation in the game, if any. */
export interface CallerParticipation {
  status: ParticipationStatus
  teamName: string | null
  division: DivisionLike | null
}

export function presentDetailedGame(game: Game, divisions: readonly DivisionLike[], teamCount: number, caller: CallerParticipation | null): DetailedGameInfoModel {
  return {
    id: game.id,
    title: game.title,
    summary: game.summary,
    content: game.content,
    hidden: game.hidden,
    organizations: organizationsOf(divisions),
    inviteCodeRequired: !!game.inviteCode && game.inviteCode.trim() !== '',
    poster: posterUrl(game.posterHash),
    limit: game.teamMemberCountLimit,
    teamCount,
    organization: caller?.division?.name ?? null,
    teamName: caller?.teamName ?? null,
    practiceMode: game.practiceMode,
    status: caller?.status ?? 'Unsubmitted',
    start: toWireDate(game.start),
    end: toWireDate(game.end),
    // Newer members (docs/compatibility.md#newer-gzctf-versions): the 1.7 division id and list; never a division's code.
    writeupRequired: game.writeupRequired,
    division: caller?.division?.id ?? null,
    divisions: divisions.map((d) => ({ id: d.id, name: d.name, inviteCodeRequired: !!d.inviteCode })),
    frozen: boardFreeze(game) !== null,
    freezeTime: wireDateOrNull(pendingFreeze(game)),
    replayPublic: game.replayPublic,
  }
}

/**
 * A page of the game list as JSON text, serialised once per cached page: the bare array of
 * v0.17.6 (and of `GET /api/game/recent`), or GZ::CTF 1.2's `{data, length, total}`.
 */
export function presentGameList(page: { games: readonly Parameters<typeof presentBasicGame>[0][]; total: number }, form: 'array' | 'page'): JsonText {
  return derivedJsonText(page, form, () => {
    const data = page.games.map(presentBasicGame)
    return form === 'array' ? data : { data, length: data.length, total: page.total }
  })
}

const wireDateOrNull = (d: Date | null | undefined): string | null => (d ? toWireDate(d) : null)
