import type { ReactNode } from 'react'
import { Skeleton, Stack } from '@mantine/core'
import type { ChallengeEditDetailModel } from '@flagwave/shared/schemas/challenges'
import { GameEditFrame, useEditChallengeId, useEditGameId } from '../GameEditFrame/GameEditFrame'
import { LoadError } from '../LoadError/LoadError'
import { useEditChallenge } from './ChallengeHeader'

interface EditChallengeScreenProps {
  testId: string
  /** Height of the placeholder of the body while the challenge loads. */
  skeletonHeight: number
  children: (gameId: number, challenge: ChallengeEditDetailModel) => ReactNode
}

/** A screen of the challenge of the route (editor, flags): the body once that challenge is loaded, its load error, or placeholders. */
export function EditChallengeScreen({ testId, skeletonHeight, children }: EditChallengeScreenProps) {
  const gameId = useEditGameId()
  const challengeId = useEditChallengeId()
  const { data: challenge, error } = useEditChallenge(gameId, challengeId)
  return (
    <GameEditFrame testId={testId}>
      {challenge && gameId !== null && challenge.id === challengeId ? (
        children(gameId, challenge)
      ) : error ? (
        <LoadError error={error} />
      ) : (
        <Stack gap="sm">
          <Skeleton height={36} />
          <Skeleton height={skeletonHeight} />
        </Stack>
      )}
    </GameEditFrame>
  )
}
