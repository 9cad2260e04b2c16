/** An editor's view of one challenge's rules (docs/challenge-rules.md): opens at, deadline, attempt limit. */
import { Badge } from '@mantine/core'
import type { ChallengeInfoModel } from '@flagwave/shared/schemas/challenges'
import { formatTime } from '../GameTime/GameTime'
import { t } from '../../i18n'

export function ChallengeRuleBadges({ challenge }: { challenge: Pick<ChallengeInfoModel, 'isEnabled' | 'releaseTimeUtc' | 'deadlineUtc' | 'submissionLimit'> }) {
  return (
    <>
      {!challenge.isEnabled && challenge.releaseTimeUtc && (
        <Badge size="sm" variant="light" color="blue" data-testid="admin-challenge-opens-at">
          {t('{{time}} 开放', { time: formatTime(challenge.releaseTimeUtc) })}
        </Badge>
      )}
      {challenge.deadlineUtc && (
        <Badge size="sm" variant="light" color="yellow" data-testid="admin-challenge-deadline">
          {t('{{time}} 截止', { time: formatTime(challenge.deadlineUtc) })}
        </Badge>
      )}
      {challenge.submissionLimit > 0 && (
        <Badge size="sm" variant="light" color="gray" data-testid="admin-challenge-limit">
          {t('限 {{n}} 次', { n: challenge.submissionLimit })}
        </Badge>
      )}
    </>
  )
}
