/** The semaphore that rations image and password work (server/src/lib/slots.ts). */
import { describe, expect, it } from 'vitest'
import { Slots, SlotsFull } from '../../server/src/lib/slots.js'

const deferred = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('Slots', () => {
  it('runs at most `size` jobs at once, the rest first come, first served', async () => {
    const slots = new Slots(2)
    const gates = [deferred(), deferred(), deferred(), deferred()]
    let running = 0
    let most = 0
    const started: number[] = []
    const jobs = gates.map((gate, i) =>
      slots.run(async () => {
        started.push(i)
        most = Math.max(most, ++running)
        await gate.promise
        running -= 1
        return i
      }),
    )
    await Promise.resolve()
    expect(started).toEqual([0, 1])
    expect(slots.queued).toBe(2)
    gates[1]!.resolve()
    await jobs[1]
    await new Promise((r) => setImmediate(r))
    expect(started).toEqual([0, 1, 2])
    gates.forEach((g) => g.resolve())
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3])
    expect(most).toBe(2)
  })

  it('frees the slot of a job that throws', async () => {
    const slots = new Slots(1)
    await expect(slots.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await slots.run(async () => 'next')).toBe('next')
  })

  it('refuses at once beyond `maxWaiting` queued callers, and accepts again once the queue drains', async () => {
    const slots = new Slots(1, 1)
    const gate = deferred()
    const first = slots.run(() => gate.promise)
    const second = slots.run(async () => 'queued')
    await expect(slots.run(async () => 'refused')).rejects.toBeInstanceOf(SlotsFull)
    gate.resolve()
    await first
    expect(await second).toBe('queued')
    expect(await slots.run(async () => 'again')).toBe('again')
  })
})
