/**
 * `DedicatedConnection` — one long-lived PostgreSQL client per purpose, for LISTEN/NOTIFY and
 * session-level advisory locks, reconnected after an error (docs/scoring.md#engine-ownership).
 */
import pg from 'pg'
import type { Logger } from 'pino'

export interface DedicatedConnectionOptions {
  url: string
  name: string
  log: Logger
  channels: string[]
  onNotification?: (channel: string, payload: string) => void
  /** After every (re)connection, once the channels are listened to. */
  onUp?: () => Promise<void> | void
  /** When the connection is lost (session locks are gone with it). */
  onDown?: () => void
  retryMs?: number
}

/** One dedicated client: LISTEN on `channels`, reconnecting after errors, with a query method for session-scoped work. */
export class DedicatedConnection {
  private client: pg.Client | null = null
  private stopped = false
  private retry: NodeJS.Timeout | null = null
  private connecting: Promise<void> | null = null
  private tail: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: DedicatedConnectionOptions) {}

  get connected(): boolean {
    return this.client !== null
  }

  /** Connect; on failure keep retrying in the background. */
  async start(): Promise<void> {
    await this.connect()
  }

  /** Run a statement on the dedicated session (one at a time, in call order). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    const run = async () => {
      if (!this.client) throw new Error(`${this.options.name}: not connected`)
      return this.client.query<R>(sql, params)
    }
    const result = this.tail.then(run, run)
    this.tail = result.catch(() => undefined)
    return result
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.retry) clearTimeout(this.retry)
    await this.connecting?.catch(() => undefined)
    const client = this.client
    this.client = null
    if (client) await client.end().catch(() => undefined)
  }

  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.options.url, keepAlive: true, application_name: `flagwave-${this.options.name}-${process.pid}` })
      let up = false
      const down = (err?: unknown) => {
        if (this.client === client) this.client = null
        client.removeAllListeners('notification')
        client.end().catch(() => undefined)
        if (!up) return
        up = false
        if (!this.stopped) {
          this.options.log.warn({ err, connection: this.options.name }, 'dedicated PostgreSQL connection lost, reconnecting')
          this.options.onDown?.()
          this.schedule()
        }
      }
      client.on('error', (err) => down(err))
      client.on('end', () => down())
      try {
        await client.connect()
        if (this.options.onNotification) client.on('notification', (msg) => this.options.onNotification!(msg.channel, msg.payload ?? ''))
        for (const channel of this.options.channels) await client.query(`listen "${channel}"`)
        if (this.stopped) {
          await client.end().catch(() => undefined)
          return
        }
        this.client = client
        up = true
      } catch (err) {
        client.removeAllListeners('notification')
        await client.end().catch(() => undefined)
        if (!this.stopped) {
          this.options.log.warn({ err, connection: this.options.name }, 'dedicated PostgreSQL connection failed, retrying')
          this.schedule()
        }
        return
      }
      try {
        await this.options.onUp?.()
      } catch (err) {
        this.options.log.error({ err, connection: this.options.name }, 'dedicated connection setup failed')
      }
    })().finally(() => {
      this.connecting = null
    })
    return this.connecting
  }

  private schedule(): void {
    if (this.retry || this.stopped) return
    this.retry = setTimeout(() => {
      this.retry = null
      void this.connect()
    }, this.options.retryMs ?? 1000)
  }
}
