/**
 * A counting semaphore for CPU-heavy work that runs off the event loop (image decoding, password
 * hashing): `run` waits for a free slot, first come, first served. With `maxWaiting`, a caller
 * that would queue behind that many others is refused at once instead (`SlotsFull`), so a burst
 * is answered with a retryable error rather than by holding thousands of requests open.
 */
export class SlotsFull extends Error {
  constructor() {
    super('every slot is taken and the queue is full')
  }
}

export class Slots {
  private free: number
  private readonly waiting: (() => void)[] = []
  constructor(
    size: number,
    private readonly maxWaiting = Infinity,
  ) {
    this.free = size
  }

  /** Jobs queued behind the running ones. */
  get queued(): number {
    return this.waiting.length
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1
    else if (this.waiting.length >= this.maxWaiting) throw new SlotsFull()
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    try {
      return await job()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.free += 1
    }
  }
}
