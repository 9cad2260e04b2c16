/**
 * Outgoing mail: SMTP through nodemailer when SMTP_URL is set; otherwise the message (and so
 * its link) goes to the log. The last messages are kept in memory for the test-suite.
 */
import nodemailer from 'nodemailer'
import type { Logger } from 'pino'

export interface Mail {
  to: string
  subject: string
  text: string
}

export class Mailer {
  readonly recent: Mail[] = []
  private readonly transport

  constructor(
    smtpUrl: string | undefined,
    private readonly from: string,
    private readonly log: Logger,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null
  }

  /** Returns false when the message could not be handed to the mail server. */
  async send(mail: Mail): Promise<boolean> {
    this.recent.push(mail)
    if (this.recent.length > 100) this.recent.shift()
    if (!this.transport) {
      this.log.info({ mail: { to: mail.to, subject: mail.subject }, body: mail.text }, 'mail (no SMTP_URL configured: logged instead of sent)')
      return true
    }
    try {
      await this.transport.sendMail({ from: this.from, ...mail })
      return true
    } catch (err) {
      this.log.error({ err, to: mail.to }, 'mail could not be sent')
      return false
    }
  }
}
