/**
 * Calls that arrive while earlier ones are in flight, sent together as one statement
 * (docs/performance.md#flag-submission). A statement's round trip and its commit cost PostgreSQL
 * and this process more than the rows it writes: under load, N calls in one statement cost little
 * more than one.
 *
 * At most `inFlight` statements run at once. A call made while fewer run leaves at once, alone, so
 * a quiet server adds no delay; calls made while all run wait for the first to return and then
 * leave together, up to `maxBatch` in one statement. A statement that fails with an error of
 * PostgreSQL's (it ran, and nothing of it was written) is run again for each call alone, so one
 * call's error is not its neighbours'.
 */
export interface BatcherOptions<I, O> {
  /** One call alone. */
  one: (item: I) => Promise<O>
  /** Several calls in one statement; answers in the items' order. */
  many: (items: I[]) => Promise<O[]>
  inFlight: number
  maxBatch: number
}

interface Waiting<I, O> {
  item: I
  resolve: (value: O) => void
  reject: (err: unknown) => void
}

export class Batcher<I, O> {
  private waiting: Waiting<I, O>[] = []
  private running = 0

  constructor(private readonly options: BatcherOptions<I, O>) {}

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject })
      this.drain()
    })
  }

  private drain(): void {
    while (this.running < this.options.inFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch)
      this.running += 1
      void this.send(batch).finally(() => {
        this.running -= 1
        this.drain()
      })
    }
  }

  private async send(batch: Waiting<I, O>[]): Promise<void> {
    if (batch.length === 1) return this.alone(batch[0]!)
    let answers: O[]
    try {
      answers = await this.options.many(batch.map((w) => w.item))
    } catch (err) {
      if (!ranAndFailed(err)) {
        for (const w of batch) w.reject(err)
        return
      }
      await Promise.all(batch.map((w) => this.alone(w)))
      return
    }
    batch.forEach((w, i) => w.resolve(answers[i]!))
  }

  private async alone(w: Waiting<I, O>): Promise<void> {
    try {
      w.resolve(await this.options.one(w.item))
    } catch (err) {
      w.reject(err)
    }
  }
}

/**
 * An error PostgreSQL answered for the statement (a SQLSTATE outside class 08, connection
 * exceptions): the statement was rolled back, so running its calls again writes nothing twice. A
 * broken connection may have lost the answer to a commit: those calls fail instead.
 */
function ranAndFailed(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08')
}
