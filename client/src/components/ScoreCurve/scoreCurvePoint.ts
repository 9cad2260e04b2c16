/** One point of a dynamic-score curve: the score after `solves` solves. */
export interface ScoreCurvePoint {
  solves: number
  score: number
}
