/**
 * What changed of a game's challenges between two versions of its board — the `challenges` of a
 * ScoreboardDelta — and what `ReceivedChallengeUpdate` has not told yet (shared/src/events.ts).
 * Bloods are carried only when they changed: they are the bulk of a challenge and change at most
 * three times.
 */
import type { ChallengeChange, ChallengeInfo } from '@flagwave/shared/schemas/scoreboard'

export class ChallengeChanges {
  /** Challenge id → what the previous version showed of it: its serialised info, and its bloods alone. */
  private readonly shown = new Map<number, { json: string; bloods: string }>()
  /** Changes not yet sent as a ReceivedChallengeUpdate, merged per challenge. */
  private readonly unsent = new Map<number, ChallengeChange>()

  /** The challenges that differ from the previous call's; remembers these as shown (and as unsent). */
  next(infos: readonly { info: ChallengeInfo; json: string }[]): ChallengeChange[] {
    const changed: ChallengeChange[] = []
    for (const { info, json } of infos) {
      const before = this.shown.get(info.id)
      // The engine re-serialises only challenges that changed, so most compare equal here at once.
      if (before?.json === json) continue
      const bloods = JSON.stringify(info.bloods)
      this.shown.set(info.id, { json, bloods })
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
