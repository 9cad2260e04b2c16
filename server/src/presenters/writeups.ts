/** Write-ups (docs/compatibility.md#play-shapes BasicWriteupInfoModel, WriteupInfoModel). */
import type { BasicWriteupInfoModel, WriteupInfoModel } from '@flagwave/shared/schemas/play'
import { toWireDate } from '@flagwave/shared/format'
import type { Game } from '../entities/Game.js'
import type { LocalFile } from '../entities/LocalFile.js'
import type { Participation } from '../entities/Participation.js'
import type { Team } from '../entities/Team.js'
import { assetUrl, avatarUrl } from '../lib/assetUrls.js'

/** The team's own view; `writeup` is the participation's file under the team's own name, or null. */
export function presentBasicWriteup(game: Game, writeup: Pick<LocalFile, 'name' | 'fileSize'> | null): BasicWriteupInfoModel {
  return {
    submitted: writeup !== null,
    name: writeup?.name ?? '#',
    fileSize: writeup ? Number(writeup.fileSize) : 0,
    note: game.wpNote,
  }
}

/** An uploaded write-up in the admin list; `team` loaded, its members left out (null). */
export function presentWriteupInfo(participation: Participation, writeup: LocalFile): WriteupInfoModel {
  const team = participation.team as Team
  const uploaded = toWireDate(participation.writeupTime ?? writeup.uploadTime)
  return {
    id: participation.id,
    team: { id: team.id, name: team.name, bio: team.bio ?? null, avatar: avatarUrl(team.avatarHash), locked: team.locked, members: null },
    url: assetUrl(writeup.hash, participation.writeupName ?? writeup.name),
    uploadTimeUTC: uploaded,
    uploadTimeUtc: uploaded,
  }
}
