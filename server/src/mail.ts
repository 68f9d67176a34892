import nodemailer, { type Transporter } from 'nodemailer';

import type { Config } from './config.js';

/** One message of the portal's: plain text (with an HTML copy where it carries a link), to one reader or team. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML, for links a mail client shows as links; the text stays the whole message. */
  html?: string;
  /** Headers of its own (a digest's List-Unsubscribe). */
  headers?: Record<string, string>;
}

/** Where sent mail is reported: every message's outcome, never its text. */
interface MailLog {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
}

/**
 * The portal's outgoing mail through the SMTP server `SMTP_URL` names (nodemailer). Sending
 * never holds up or fails the request that caused it: the change is made and audited
 * whether the mail goes or not, and a message that could not be sent is logged with its
 * recipient and reason. `sent` lets a caller that needs it (a test, the readers command)
 * wait for the messages under way.
 */
export class Mailer {
  private readonly transport: Transporter;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly options: { smtpUrl: string; from: string; log: MailLog },
    transport?: Transporter,
  ) {
    this.transport = transport ?? nodemailer.createTransport(options.smtpUrl);
  }

  send(mail: Mail): void {
    const sending = this.transport
      .sendMail({
        from: this.options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
      })
      .then(
        (info: { messageId?: string }) =>
          this.options.log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent'),
        (error: unknown) =>
          this.options.log.warn(
            { to: mail.to, subject: mail.subject, reason: error instanceof Error ? error.message : String(error) },
            'mail could not be sent',
          ),
      )
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /**
   * Sends `mail` and resolves once the SMTP server took it; rejects when it did not (a caller
   * that must send a message once, and again later when it failed: the digest).
   */
  async deliver(mail: Mail): Promise<void> {
    const info = (await this.transport.sendMail({
      from: this.options.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html === undefined ? {} : { html: mail.html }),
      ...(mail.headers === undefined ? {} : { headers: mail.headers }),
    })) as { messageId?: string };
    this.options.log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
  }

  /** Resolves when every message under way has been sent or has failed. */
  async sent(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  close(): void {
    this.transport.close();
  }
}

/** The mailer `config.mail` asks for, or null when no SMTP server is set. */
export function mailerFor(config: Pick<Config, 'mail'>, log: MailLog): Mailer | null {
  return config.mail === null ? null : new Mailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, log });
}
