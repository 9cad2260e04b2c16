/**
 * Game shapes (docs/compatibility.md#game-notice-and-event-shapes): GameInfoModel for the edit endpoints, BasicGameInfoModel and
 * DetailedGameInfoModel for the player endpoints.
 */
import type { BasicGameInfoModel, DetailedGameInfoModel, GameInfoModel } from '@flagwave/shared/schemas/games'
import type { ParticipationStatus } from '@flagwave/shared/enums'
import { toWireDate } from '@flagwave/shared/format'
import type { Game } from '../entities/Game.js'
import { posterUrl } from '../lib/assetUrls.js'
import { derivedJsonText, type JsonText } from '../lib/jsonText.js'

export function presentGameInfo(game: Game): GameInfoModel {
  return {
    id: game.id,
    title: game.title,
    hidden: game.hidden,
    summary: game.summary,
    content: game.content,
    acceptWithoutReview: game.acceptWithoutReview,
    inviteCode: game.inviteCode ?? null,
    organizations: game.organizations ?? null,
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
  organization: string | null
}

export function presentDetailedGame(game: Game, teamCount: number, caller: CallerParticipation | null): DetailedGameInfoModel {
  return {
    id: game.id,
    title: game.title,
    summary: game.summary,
    content: game.content,
    hidden: game.hidden,
    organizations: game.organizations ?? null,
    inviteCodeRequired: !!game.inviteCode && game.inviteCode.trim() !== '',
    poster: posterUrl(game.posterHash),
    limit: game.teamMemberCountLimit,
    teamCount,
    organization: caller?.organization ?? null,
    teamName: caller?.teamName ?? null,
    practiceMode: game.practiceMode,
    status: caller?.status ?? 'Unsubmitted',
    start: toWireDate(game.start),
    end: toWireDate(game.end),
    // Newer members (docs/compatibility.md#newer-gzctf-versions): games have no divisions yet.
    writeupRequired: game.writeupRequired,
    division: null,
    divisions: [],
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
