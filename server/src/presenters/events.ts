/** What monitors read (docs/compatibility.md#game-notice-and-event-shapes GameEvent, docs/compatibility.md#play-shapes CheatInfoModel). */
import type { GameEvent as GameEventModel } from '@flagwave/shared/schemas/games'
import type { CheatInfoModel, Submission as SubmissionModel } from '@flagwave/shared/schemas/play'
import { toWireDate } from '@flagwave/shared/format'
import type { GameEvent } from '../entities/GameEvent.js'
import type { CheatInfo } from '../entities/CheatInfo.js'
import type { Participation } from '../entities/Participation.js'
import type { Team } from '../entities/Team.js'
import type { User } from '../entities/User.js'
import { presentParticipation } from './participations.js'
import { eventValues } from './values.js'

/** `user` and `team` must be loaded when set; `""` when gone. */
export function presentGameEvent(event: GameEvent): GameEventModel {
  return presentGameEventBy(event, (event.user as User | null)?.userName ?? '', (event.team as Team | null)?.name ?? '')
}

/** An event whose user and team are known by name (a row just written, holding references only). */
export function presentGameEventBy(event: Pick<GameEvent, 'type' | 'content' | 'publishTime'>, userName: string, teamName: string): GameEventModel {
  return {
    type: event.type,
    content: event.content,
    time: toWireDate(event.publishTime),
    user: userName,
    team: teamName,
    values: eventValues(event.type, event.content),
  }
}

/** `submission` must be presented by the caller (presenters/submissions.ts). */
export function presentCheatInfo(cheat: CheatInfo, submission: SubmissionModel): CheatInfoModel {
  return {
    ownedTeam: presentParticipation(cheat.sourceTeam as Participation),
    submitTeam: presentParticipation(cheat.submitTeam as Participation),
    submission,
  }
}

