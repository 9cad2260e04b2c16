/**
 * Realtime events raised while handling a request. They are published only after the
 * response succeeded — i.e. after the database committed — so a client never hears about a
 * change it cannot then read back (DESIGN §1).
 */
import type { Realtime, Envelope } from './publish.js'

export class Outbox {
  private readonly pending: Envelope[] = []

  add(envelope: Envelope): void {
    this.pending.push(envelope)
  }

  flush(realtime: Realtime): void {
    for (const envelope of this.pending.splice(0)) realtime.emit(envelope)
  }
}
