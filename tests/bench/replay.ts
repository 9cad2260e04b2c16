/**
 * Replay seeks on the large data set (docs/scoring.md#replay): the history read once, then seeks
 * as a slider and the player make them — random jumps anywhere in the game, and forward play at
 * 600× (150 s of game time per frame) — each the board at that moment rendered to JSON, and the heap
 * the timeline keeps afterwards (its cursors). Beside it the baseline: a full rebuild of the live
 * board from memory (build + serialise), what a seek that builds costs at the end of the game.
 */
import v8 from 'node:v8'
import vm from 'node:vm'
import type pg from 'pg'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { loadGameData } from '../../server/src/domain/scoreboard/load.js'
import { loadReplayData } from '../../server/src/domain/scoreboard/replay/data.js'
import { ReplayTimeline } from '../../server/src/domain/scoreboard/replay/timeline.js'

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!

/** The heap in use after a full collection, in MB. */
function heapMb(): number {
  v8.setFlagsFromString('--expose-gc')
  ;(vm.runInNewContext('gc') as () => void)()
  return process.memoryUsage().heapUsed / 1e6
}

export async function replaySeeks(pool: pg.Pool, gameId: number) {
  let t = process.hrtime.bigint()
  const data = (await loadReplayData(pool, gameId))!
  const loadMs = ms(t)
  const first = data.solves[0]!.time
  const last = data.solves.at(-1)!.time
  // Baseline first, so that both it and the seeks run warm code, as on a node that serves boards:
  // the live board's full rebuild from data in memory.
  const live = (await loadGameData(pool, gameId))!
  const rebuilds: number[] = []
  let liveJson = ''
  for (let i = 0; i < 5; i++) {
    t = process.hrtime.bigint()
    liveJson = ScoreboardState.build(live).snapshot(last + 1).json
    rebuilds.push(ms(t))
  }
  const heapBefore = heapMb()
  const timeline = new ReplayTimeline(data)
  // A deterministic spread of moments over the game's solves.
  let seed = 7
  const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32)
  const jumps: number[] = []
  let folded = 0
  for (let i = 0; i < 40; i++) {
    const at = first + Math.floor(random() * (last - first))
    t = process.hrtime.bigint()
    const frame = timeline.frameAt(at)
    jumps.push(ms(t))
    if (frame.folded) folded++
  }
  const play: number[] = []
  const step = 150_000
  for (let at = first; at <= last; at += step) {
    t = process.hrtime.bigint()
    timeline.frameAt(at)
    play.push(ms(t))
  }
  const keptMb = heapMb() - heapBefore
  t = process.hrtime.bigint()
  const end = timeline.frameAt(last + 1)
  const endMs = ms(t)
  return {
    countedSolves: data.solves.length,
    loadMs: round(loadMs),
    randomSeekMedianMs: round(quantile(jumps, 0.5)),
    randomSeekP95Ms: round(quantile(jumps, 0.95)),
    randomSeekMaxMs: round(Math.max(...jumps)),
    randomSeeksFolded: `${folded}/${jumps.length}`,
    playSeekMedianMs: round(quantile(play, 0.5)),
    playSeekP95Ms: round(quantile(play, 0.95)),
    playSeekMaxMs: round(Math.max(...play)),
    playFrames: play.length,
    keptStates: timeline.keptStates(),
    keptStatesMb: round(keptMb),
    endSeekMs: round(endMs),
    fullRebuildMs: round(quantile(rebuilds, 0.5)),
    finalEqualsLive: JSON.stringify(JSON.parse(end.snapshot.json)) === JSON.stringify(JSON.parse(liveJson)),
  }
}
