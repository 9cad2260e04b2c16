/**
 * The submission queue's wake-up channel: a submit NOTIFYs it after its INSERT committed, and
 * idle checkers LISTEN on it (docs/scoring.md#submission-queue).
 */
export const SUBMISSION_CHANNEL = 'flagwave_submissions'
