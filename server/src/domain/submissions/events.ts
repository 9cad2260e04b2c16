/**
 * The pushes of a settled submission, in the contract's order (docs/realtime.md): the monitors'
 * game events, the blood notice, the monitors' submission, the team's own result (a detected
 * cheat masked as a wrong answer), then the audit entry for admins. The checker calls this after
 * the batch committed.
 */
import { rooms } from '@flagwave/shared/events'
import type { Publish } from '../../realtime/sink.js'
import { presentGameEventBy } from '../../presenters/events.js'
import { presentNotice } from '../../presenters/notices.js'
import { presentSubmissionBy, presentSubmissionResult } from '../../presenters/submissions.js'
import { presentLiveLog } from '../../presenters/logs.js'
import type { Settled } from './settle.js'

export function publishSettled(events: Publish, s: Settled): void {
  const game = rooms.game(s.gameId)
  for (const event of s.events) {
    events.publish('monitor', game, 'ReceivedGameEvent', presentGameEventBy({ ...event, publishTime: s.settledAt }, s.userName, s.teamName))
  }
  // A blood from the freeze on is pushed at the unfreeze instead (domain/games/freezeCommands.ts).
  if (s.notice && !s.noticeHeld) {
    const notice = presentNotice({ ...s.notice, publishTime: s.settledAt })
    for (const room of s.noticeRooms ?? []) events.publish('user', room, 'ReceivedGameNotice', notice)
  }
  events.publish('monitor', game, 'ReceivedSubmissions', presentSubmissionBy(s, s.userName, s.teamName, s.challengeTitle))
  events.publish('user', rooms.team(s.gameId, s.participationId), 'ReceivedSubmissionResult', presentSubmissionResult(s))
}

/** The audit entry stored with the settlement, pushed to admins live like every other. */
export function publishSettledAudit(events: Publish, s: Settled): void {
  events.publish('admin', rooms.admins, 'ReceivedLog', presentLiveLog(s.audit))
}
