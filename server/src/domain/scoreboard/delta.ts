/**
 * What changed of a game's challenges between two versions of its board — the `challenges` of a
 * ScoreboardDelta — and what `ReceivedChallengeUpdate` has not told yet (shared/src/events.ts).
 * Bloods are carried only when they changed: they are the bulk of a challenge and change at most
 * three times.
 */
import type { ChallengeChange, ChallengeInfo } from '@flagwave/shared/schemas/scoreboard'

export class ChallengeChanges {
  /** Challenge id → what the previous version showed of it. */
  private readonly shown = new Map<number, { score: number; solved: number; bloods: string }>()
  /** Changes not yet sent as a ReceivedChallengeUpdate, merged per challenge. */
  private readonly unsent = new Map<number, ChallengeChange>()

  /** The challenges that differ from the previous call's; remembers these as shown (and as unsent). */
  next(infos: readonly { info: ChallengeInfo }[]): ChallengeChange[] {
    const changed: ChallengeChange[] = []
    for (const { info } of infos) {
      const bloods = JSON.stringify(info.bloods)
      const before = this.shown.get(info.id)
      if (before && before.score === info.score && before.solved === info.solved && before.bloods === bloods) continue
      this.shown.set(info.id, { score: info.score, solved: info.solved, bloods })
      const change: ChallengeChange = { id: info.id, score: info.score, solved: info.solved }
      if (before?.bloods !== bloods) change.bloods = info.bloods
      changed.push(change)
      const pending = this.unsent.get(info.id)
      this.unsent.set(info.id, change.bloods || !pending?.bloods ? change : { ...change, bloods: pending.bloods })
    }
    return changed
  }

  get hasUnsent(): boolean {
    return this.unsent.size > 0
  }

  /** Everything that changed since the last call, once per challenge. */
  takeUnsent(): ChallengeChange[] {
    const list = [...this.unsent.values()]
    this.unsent.clear()
    return list
  }
}
