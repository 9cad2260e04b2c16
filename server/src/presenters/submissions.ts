/**
 * Submissions (docs/compatibility.md#play-shapes): the monitor's Submission, the team's SubmissionResult push and
 * CheatInfoModel. Monitors see the final status unmasked; the submitter sees CheatDetected as
 * WrongAnswer (docs/compatibility.md#group-game-challenges-and-flags).
 */
import type { CheatInfoModel, Submission as SubmissionModel } from '@flagwave/shared/schemas/play'
import type { SubmissionResult } from '@flagwave/shared/events'
import { toWireDate } from '@flagwave/shared/format'
import { maskedStatus } from '@flagwave/shared/enums'
import type { Submission } from '../entities/Submission.js'
import type { CheatInfo } from '../entities/CheatInfo.js'
import type { Challenge } from '../entities/Challenge.js'
import type { Participation } from '../entities/Participation.js'
import type { Team } from '../entities/Team.js'
import type { User } from '../entities/User.js'
import { presentCheatInfo } from './events.js'

/**
 * Submission as monitors read it. Populate `user`, `challenge` and `participation.team`
 * (e.g. `populate: ['user', 'challenge', 'participation.team']`); a deleted user reads as `""`.
 */
export function presentSubmission(submission: Submission): SubmissionModel {
  return {
    answer: submission.answer,
    status: submission.status,
    time: toWireDate(submission.submitTime),
    user: (submission.user as User | null | undefined)?.userName ?? '',
    team: ((submission.participation as Participation).team as Team).name,
    challenge: (submission.challenge as Challenge).title,
  }
}

/** A submission known by its names (a row just settled, holding references only). */
export function presentSubmissionBy(
  submission: Pick<Submission, 'answer' | 'status'> & { submitTime: Date | number },
  userName: string,
  teamName: string,
  challengeTitle: string,
): SubmissionModel {
  return { answer: submission.answer, status: submission.status, time: toWireDate(submission.submitTime), user: userName, team: teamName, challenge: challengeTitle }
}

/** The team-private push (`ReceivedSubmissionResult`), status masked like the status call. */
export function presentSubmissionResult(submission: Pick<Submission, 'id' | 'status'> & { challengeId: number }): SubmissionResult {
  return { id: submission.id, challengeId: submission.challengeId, status: maskedStatus(submission.status) }
}

/**
 * CheatInfoModel. Populate `submission.user`, `submission.challenge`, `submission.participation.team`,
 * `submitTeam.team` and `sourceTeam.team`.
 */
export function presentCheatInfoModel(cheat: CheatInfo): CheatInfoModel {
  return presentCheatInfo(cheat, presentSubmission(cheat.submission as Submission))
}
